import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { baseUrlOf, SseClient } from '../../test/support/events/events.js';
import { createSchedule, fixityJob, ok, schedulerOfApp } from '../../test/support/schedules/schedules.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import type { Schedule } from './schedule.js';

let t: TestApp;
let view: EmbeddedView;
let otherViewId: number;
let curator: { id: number; username: string; token: string };
let otherCurator: { id: number; token: string };
let user: { id: number; token: string };

function invalid(response: { body: string; json: () => unknown }): Record<string, Record<string, string>> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('INVALID');
  return (envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> })
    .messages;
}

async function jobs(): Promise<{ id: number; createdBy: number; kind: string }[]> {
  return ok(await sendJson(t.app, 'GET', '/curation-job'))['ArrayList<CurationJob>'] as {
    id: number;
    createdBy: number;
    kind: string;
  }[];
}

async function setCurators(viewId: number, curators: number[]): Promise<void> {
  const current = ok(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).RepositoryView as object;
  ok(
    await sendJson(t.app, 'PUT', '/repository-view', {
      ...current,
      password: null,
      curators: curators.map((id) => ({ id })),
    }),
  );
}

beforeAll(async () => {
  t = await buildTestApp({ searchIndexNewViews: false });
  view = await listenWithEmbeddedView(t, 'Schedules (routes)');
  curator = await createUser(t, 'ROLE_CURATOR');
  otherCurator = await createUser(t, 'ROLE_CURATOR');
  user = await createUser(t, 'ROLE_USER');
  await setCurators(view.viewId, [curator.id]);
  const other = ok(
    await sendJson(t.app, 'POST', '/repository-view', {
      type: 'FEDORA',
      name: 'other',
      rootUri: 'http://127.0.0.1:9/other/',
      curators: [{ id: otherCurator.id }],
    }),
  );
  otherViewId = (other.RepositoryView as { id: number }).id;
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('POST /schedule', () => {
  it('creates a schedule as the curator of its job’s view, with its next run in its time zone', async () => {
    const before = Date.now();
    const schedule = await createSchedule(
      t.app,
      { name: 'Nightly', cron: '30 2 * * *', timeZone: 'Europe/Berlin', job: fixityJob(view.viewId) },
      curator.token,
    );
    expect(schedule).toMatchObject({
      name: 'Nightly',
      cron: '30 2 * * *',
      timeZone: 'Europe/Berlin',
      enabled: true,
      job: fixityJob(view.viewId),
      lastRun: null,
      lastJobId: null,
      lastError: null,
      createdBy: curator.id,
    });
    expect(Object.keys(schedule)).toEqual([
      'id',
      'name',
      'cron',
      'timeZone',
      'enabled',
      'job',
      'nextRun',
      'lastRun',
      'lastJobId',
      'lastError',
      'createdBy',
    ]);
    // 02:30 in Berlin is 00:30 or 01:30 UTC, within the next day.
    const next = schedule.nextRun ?? 0;
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    expect(new Date(next).getUTCMinutes()).toBe(30);
    expect([0, 1]).toContain(new Date(next).getUTCHours());
  });

  it('defaults the time zone to UTC and enabled to true', async () => {
    const response = await sendJson(
      t.app,
      'POST',
      '/schedule',
      { name: 'Defaults', cron: '0 * * * *', job: fixityJob(view.viewId) },
      { token: curator.token },
    );
    expect(ok(response).Schedule).toMatchObject({ timeZone: 'UTC', enabled: true });
  });

  it('reports a malformed cron, an unknown time zone and an empty name together', async () => {
    const messages = invalid(
      await sendJson(t.app, 'POST', '/schedule', {
        name: '',
        cron: '61 * * * *',
        timeZone: 'Mars/Olympus_Mons',
        job: fixityJob(view.viewId),
      }),
    );
    expect(messages.name).toEqual({ minlength: "A schedule's name must not be empty" });
    expect(messages.cron?.pattern).toMatch(
      /^A schedule's cron must be five fields .* minute granularity; "61 \* \* \* \*" is not/,
    );
    expect(messages.timeZone).toEqual({
      pattern:
        'A schedule\'s timeZone must be an IANA time zone name such as Europe/Berlin; "Mars/Olympus_Mons" is not one',
    });
  });

  it.each([['* * * *'], ['*/5 * * * * *'], ['not a cron']])(
    'refuses the cron expression %j',
    async (cron) => {
      const messages = invalid(
        await sendJson(t.app, 'POST', '/schedule', { name: 'x', cron, job: fixityJob(view.viewId) }),
      );
      expect(Object.keys(messages)).toEqual(['cron']);
      expect(messages.cron?.pattern).toContain('five fields');
    },
  );

  it('refuses a job body with the messages a job’s creation gives, under job.<field>', async () => {
    const bodies = [
      fixityJob(view.viewId, { operators: [1] }),
      fixityJob(view.viewId, { kind: 'MAPPING', operators: [] }),
      fixityJob(987654),
      { repositoryViewId: 'one', kind: 'FIXITY' },
    ];
    for (const job of bodies) {
      const asJob = invalid(await sendJson(t.app, 'POST', '/curation-job', job));
      const asSchedule = invalid(
        await sendJson(t.app, 'POST', '/schedule', { name: 'x', cron: '0 3 * * *', job }),
      );
      const expected = Object.fromEntries(Object.entries(asJob).map(([key, value]) => [`job.${key}`, value]));
      expect(asSchedule).toEqual(expected);
      expect(Object.keys(asSchedule).length).toBeGreaterThan(0);
    }
    const messages = invalid(
      await sendJson(t.app, 'POST', '/schedule', {
        name: 'x',
        cron: '0 3 * * *',
        job: fixityJob(view.viewId, { operators: [1] }),
      }),
    );
    expect(messages['job.operators']).toEqual({ type: 'A FIXITY job takes no operators' });
  });

  it('refuses a missing job, a job that is not an object and a SPREADSHEET job', async () => {
    expect(invalid(await sendJson(t.app, 'POST', '/schedule', { name: 'x', cron: '0 3 * * *' })).job).toEqual(
      {
        required: 'A schedule requires a job (the body of POST /curation-job)',
      },
    );
    expect(
      invalid(await sendJson(t.app, 'POST', '/schedule', { name: 'x', cron: '0 3 * * *', job: [1] })).job,
    ).toEqual({ type: "A schedule's job must be an object: the body of POST /curation-job" });
    const sheet = invalid(
      await sendJson(t.app, 'POST', '/schedule', {
        name: 'x',
        cron: '0 3 * * *',
        job: { repositoryViewId: view.viewId, contextUri: '', kind: 'SPREADSHEET', spreadsheet: 'a,b\n' },
      }),
    );
    expect(sheet['job.kind']?.type).toContain('cannot repeat a SPREADSHEET job');
  });

  it('refuses an id on create', async () => {
    const messages = invalid(
      await sendJson(t.app, 'POST', '/schedule', {
        id: 5,
        name: 'x',
        cron: '0 3 * * *',
        job: fixityJob(view.viewId),
      }),
    );
    expect(messages.business?.CREATE).toContain('ids are assigned by the service');
  });

  it('refuses a curator a schedule of a view they do not curate, as a job would be refused', async () => {
    const messages = invalid(
      await sendJson(
        t.app,
        'POST',
        '/schedule',
        { name: 'x', cron: '0 3 * * *', job: fixityJob(view.viewId) },
        { token: otherCurator.token },
      ),
    );
    expect(messages['job.repositoryViewId']).toEqual({
      exists: `RepositoryView with id ${view.viewId} does not exist`,
    });
  });
});

describe('permissions', () => {
  let schedule: Schedule;
  beforeAll(async () => {
    schedule = await createSchedule(t.app, { name: 'Curated', job: fixityJob(view.viewId) }, curator.token);
  });

  it('lists a curator the schedules of the views they curate; an administrator all', async () => {
    const theirs = ok(await sendJson(t.app, 'GET', '/schedule', undefined, { token: curator.token }))[
      'ArrayList<Schedule>'
    ] as Schedule[];
    expect(theirs.map((s) => s.id)).toContain(schedule.id);
    const others = ok(await sendJson(t.app, 'GET', '/schedule', undefined, { token: otherCurator.token }))[
      'ArrayList<Schedule>'
    ] as Schedule[];
    expect(others).toEqual([]);
    const all = ok(await sendJson(t.app, 'GET', '/schedule'))['ArrayList<Schedule>'] as Schedule[];
    expect(all.map((s) => s.id)).toEqual(theirs.map((s) => s.id));
  });

  it('answers 403 to a curator of another view reading, updating or deleting the schedule', async () => {
    const options = { token: otherCurator.token };
    const read = await sendJson(t.app, 'GET', `/schedule/${schedule.id}`, undefined, options);
    const update = await sendJson(t.app, 'PUT', '/schedule', { ...schedule, name: 'mine' }, options);
    const remove = await sendJson(t.app, 'DELETE', '/schedule', { id: schedule.id }, options);
    for (const response of [read, update, remove]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(body(response).meta.status).toBe('UNAUTHORIZED');
      expect(body(response).meta.message).toContain('which you do not curate');
    }
    expect(ok(await sendJson(t.app, 'GET', `/schedule/${schedule.id}`)).Schedule).toMatchObject({
      name: 'Curated',
    });
  });

  it('answers 403 to a ROLE_USER on every schedule route', async () => {
    const options = { token: user.token };
    const responses = [
      await sendJson(t.app, 'GET', '/schedule', undefined, options),
      await sendJson(t.app, 'GET', `/schedule/${schedule.id}`, undefined, options),
      await sendJson(
        t.app,
        'POST',
        '/schedule',
        { name: 'x', cron: '0 3 * * *', job: fixityJob(view.viewId) },
        options,
      ),
      await sendJson(t.app, 'PUT', '/schedule', schedule, options),
      await sendJson(t.app, 'DELETE', '/schedule', { id: schedule.id }, options),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
  });

  it('answers 404 for an unknown id, INVALID for an update or delete of one', async () => {
    const read = await sendJson(t.app, 'GET', '/schedule/987654');
    expect(read.statusCode).toBe(404);
    expect(body(read).meta.message).toBe('Schedule with id 987654 does not exist');
    expect(invalid(await sendJson(t.app, 'PUT', '/schedule', { ...schedule, id: 987654 })).business).toEqual({
      UPDATE: 'Schedule with id 987654 does not exist',
    });
    expect(invalid(await sendJson(t.app, 'DELETE', '/schedule', { id: 987654 })).business).toEqual({
      DELETE: 'Schedule with id 987654 does not exist',
    });
    expect(invalid(await sendJson(t.app, 'PUT', '/schedule', { ...schedule, id: null })).business).toEqual({
      UPDATE: 'Schedule requires an id',
    });
  });
});

describe('PUT and DELETE /schedule', () => {
  it('pauses (no next run), resumes, edits and deletes, each audited', async () => {
    const schedule = await createSchedule(
      t.app,
      { name: 'Edit me', job: fixityJob(view.viewId) },
      curator.token,
    );
    const paused = ok(
      await sendJson(t.app, 'PUT', '/schedule', { ...schedule, enabled: false }, { token: curator.token }),
    ).Schedule as Schedule;
    expect(paused).toMatchObject({ id: schedule.id, enabled: false, nextRun: null });
    const resumed = ok(
      await sendJson(
        t.app,
        'PUT',
        '/schedule',
        { ...paused, enabled: true, cron: '15 4 * * 1', name: 'Mondays' },
        { token: curator.token },
      ),
    ).Schedule as Schedule;
    expect(resumed).toMatchObject({ enabled: true, cron: '15 4 * * 1', name: 'Mondays' });
    expect(new Date(resumed.nextRun ?? 0).getUTCDay()).toBe(1);
    expect(
      invalid(
        await sendJson(t.app, 'PUT', '/schedule', { ...resumed, cron: '* *' }, { token: curator.token }),
      ).cron?.pattern,
    ).toContain('five fields');
    ok(await sendJson(t.app, 'DELETE', '/schedule', { id: schedule.id }, { token: curator.token }));
    expect((await sendJson(t.app, 'GET', `/schedule/${schedule.id}`)).statusCode).toBe(404);

    const audit = ok(await sendJson(t.app, 'GET', '/audit?limit=200'))['ArrayList<AuditEvent>'] as {
      action: string;
      username: string | null;
      detail: { id?: number; fields?: Record<string, unknown> };
    }[];
    const mine = audit.filter(
      (event) => event.action.startsWith('schedule.') && event.detail.id === schedule.id,
    );
    expect(mine.map((event) => event.action).sort()).toEqual([
      'schedule.create',
      'schedule.delete',
      'schedule.update',
      'schedule.update',
    ]);
    expect(new Set(mine.map((event) => event.username))).toEqual(new Set([curator.username]));
    const edit = mine.find(
      (event) => event.detail.fields?.cron !== undefined && event.action === 'schedule.update',
    );
    expect(edit?.detail.fields).toEqual({ cron: '15 4 * * 1', enabled: true });
  });
});

describe('firing', () => {
  it('starts the job as the schedule’s creator once per due time', async () => {
    const schedule = await createSchedule(
      t.app,
      { name: 'Fire', job: fixityJob(view.viewId) },
      curator.token,
    );
    const scheduler = schedulerOfApp(t.app);
    const due = Date.UTC(2026, 0, 1, 3, 0);
    const before = (await jobs()).length;
    const first = await scheduler.fire(schedule.id, due);
    expect(first.outcome).toBe('STARTED');
    expect(await scheduler.fire(schedule.id, due)).toEqual({ outcome: 'TAKEN' });
    const after = await jobs();
    expect(after.length).toBe(before + 1);
    const started = after.find((job) => first.outcome === 'STARTED' && job.id === first.jobId);
    expect(started).toMatchObject({ kind: 'FIXITY', createdBy: curator.id });
    expect(ok(await sendJson(t.app, 'GET', `/schedule/${schedule.id}`)).Schedule).toMatchObject({
      lastRun: due,
      lastJobId: first.outcome === 'STARTED' ? first.jobId : -1,
      lastError: null,
    });
  });

  it('starts nothing and records why when its creator no longer curates the view', async () => {
    const schedule = await createSchedule(
      t.app,
      { name: 'Orphan', job: fixityJob(view.viewId) },
      curator.token,
    );
    await setCurators(view.viewId, []);
    try {
      const before = (await jobs()).length;
      const due = Date.UTC(2026, 0, 2, 3, 0);
      const firing = await schedulerOfApp(t.app).fire(schedule.id, due);
      expect(firing.outcome).toBe('ERROR');
      expect((await jobs()).length).toBe(before);
      const after = ok(await sendJson(t.app, 'GET', `/schedule/${schedule.id}`)).Schedule as Schedule;
      expect(after).toMatchObject({ lastRun: due, lastJobId: null });
      expect(after.lastError).toBe(
        `${curator.username}, who created schedule ${schedule.id}, no longer curates repository view ${view.viewId}`,
      );
    } finally {
      await setCurators(view.viewId, [curator.id]);
    }
  });

  it('starts nothing and records why when its creator was deleted', async () => {
    const gone = await createUser(t, 'ROLE_CURATOR');
    await setCurators(view.viewId, [curator.id, gone.id]);
    const schedule = await createSchedule(t.app, { name: 'Gone', job: fixityJob(view.viewId) }, gone.token);
    ok(await sendJson(t.app, 'POST', '/user/delete', { id: gone.id }));
    const before = (await jobs()).length;
    const firing = await schedulerOfApp(t.app).fire(schedule.id, Date.UTC(2026, 0, 5, 3, 0));
    expect(firing).toEqual({
      outcome: 'ERROR',
      error: `The user (id ${gone.id}) who created schedule ${schedule.id} no longer exists`,
    });
    expect((await jobs()).length).toBe(before);
    expect(ok(await sendJson(t.app, 'GET', `/schedule/${schedule.id}`)).Schedule).toMatchObject({
      lastJobId: null,
      lastError: firing.outcome === 'ERROR' ? firing.error : '',
    });
  });

  it('skips a paused schedule', async () => {
    const schedule = await createSchedule(
      t.app,
      { name: 'Paused', enabled: false, job: fixityJob(view.viewId) },
      curator.token,
    );
    expect(await schedulerOfApp(t.app).fire(schedule.id, Date.UTC(2026, 0, 3))).toEqual({
      outcome: 'SKIPPED',
    });
  });
});

describe('events', () => {
  it('publishes create, fire, update and delete on the schedule channel to the view’s curators only', async () => {
    const open = (token: string) =>
      SseClient.open(`${baseUrlOf(t.app)}/events`, { authorization: `Bearer ${token}` });
    const mine = await open(curator.token);
    const theirs = await open(otherCurator.token);
    try {
      const schedule = await createSchedule(
        t.app,
        { name: 'Heard', job: fixityJob(view.viewId) },
        curator.token,
      );
      await schedulerOfApp(t.app).fire(schedule.id, Date.UTC(2026, 0, 4, 3, 0));
      ok(
        await sendJson(t.app, 'PUT', '/schedule', { ...schedule, enabled: false }, { token: curator.token }),
      );
      ok(await sendJson(t.app, 'DELETE', '/schedule', { id: schedule.id }, { token: curator.token }));
      await mine.waitForEvent((envelope, event) => event === 'schedule' && envelope.meta.action === 'DELETE');
      const heard = mine.events
        .filter((message) => message.event === 'schedule' && message.envelope.meta.id === String(schedule.id))
        .map((message) => [message.envelope.meta.action, message.envelope.meta.message]);
      expect(heard).toEqual([
        ['CREATE', `Schedule ${schedule.id} created`],
        ['UPDATE', expect.stringMatching(new RegExp(`^Schedule ${schedule.id} started curation job \\d+$`))],
        ['UPDATE', `Schedule ${schedule.id} updated`],
        ['DELETE', `Schedule ${schedule.id} deleted`],
      ]);
      // A marker the other curator may hear (a schedule of their own view), after everything above.
      const marker = await createSchedule(
        t.app,
        { name: 'Marker', job: fixityJob(otherViewId) },
        otherCurator.token,
      );
      await theirs.waitForEvent(
        (envelope, event) => event === 'schedule' && envelope.meta.id === String(marker.id),
      );
      expect(
        theirs.events.filter((message) => message.event === 'schedule').map((m) => m.envelope.meta.id),
      ).toEqual([String(marker.id)]);
    } finally {
      mine.close();
      theirs.close();
    }
  });
});
