import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from './support/embedded-view.js';
import { fixityJob, ok } from './support/schedules/schedules.js';
import { buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import type { Schedule } from '../src/schedules/schedule.js';

/** `scriptorium schedule list|add|remove` against a real service (issue 31). */
let t: TestApp;
let view: EmbeddedView;
let server: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-cli-schedule-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process; asynchronous, since this process serves the API it calls. */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args, '--server', server],
      { env: { PATH: process.env.PATH ?? '', SCRIPTORIUM_TOKEN: t.adminToken }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr });
      },
    );
  });
}

async function schedules(): Promise<Schedule[]> {
  return ok(await sendJson(t.app, 'GET', '/schedule'))['ArrayList<Schedule>'] as Schedule[];
}

beforeAll(async () => {
  t = await buildTestApp({ searchIndexNewViews: false });
  view = await listenWithEmbeddedView(t, 'CLI schedules');
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('scriptorium schedule', () => {
  it('adds a schedule from JSON and from @file, lists and removes it', async () => {
    const added = await cli([
      'schedule',
      'add',
      '--name',
      'Monthly fixity',
      '--cron',
      '0 3 1 * *',
      '--time-zone',
      'Europe/Berlin',
      '--job',
      JSON.stringify(fixityJob(view.viewId)),
    ]);
    expect(added.stdout).toMatch(
      /^Created schedule \d+: \d+\tMonthly fixity\t0 3 1 \* \*\tEurope\/Berlin\tnext /,
    );
    expect(added.code).toBe(0);
    const file = path.join(dir, 'job.json');
    fs.writeFileSync(file, JSON.stringify(fixityJob(view.viewId)));
    const fromFile = await cli([
      'schedule',
      'add',
      '--name',
      'Paused',
      '--cron',
      '0 4 * * *',
      '--paused',
      '--job',
      `@${file}`,
    ]);
    expect(fromFile.code).toBe(0);
    const stored = await schedules();
    expect(stored.map((s) => [s.name, s.timeZone, s.enabled])).toEqual([
      ['Monthly fixity', 'Europe/Berlin', true],
      ['Paused', 'UTC', false],
    ]);

    const listed = await cli(['schedule', 'list']);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`${stored[1]?.id}\tPaused\t0 4 * * *\tUTC\tpaused\tlast never`);

    for (const schedule of stored) {
      const removed = await cli(['schedule', 'remove', String(schedule.id)]);
      expect(removed.stdout).toBe(`Removed schedule ${schedule.id}\n`);
    }
    expect(await schedules()).toEqual([]);
    expect((await cli(['schedule', 'list'])).stdout).toBe('No schedules\n');
  }, 120_000);

  it('prints the service’s messages for bad input and exits 1', async () => {
    const run = await cli([
      'schedule',
      'add',
      '--name',
      'x',
      '--cron',
      '* * *',
      '--job',
      JSON.stringify(fixityJob(view.viewId, { operators: [1] })),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("cron: A schedule's cron must be five fields");
    expect(run.stdout).toContain('job.operators: A FIXITY job takes no operators');
    const badJson = await cli(['schedule', 'add', '--name', 'x', '--cron', '0 3 * * *', '--job', '{nope']);
    expect(badJson.code).toBe(1);
    expect(badJson.stdout).toContain('--job must be the JSON body of POST /curation-job');
    const noId = await cli(['schedule', 'remove', 'abc']);
    expect(noId.code).toBe(2);
    expect((await cli(['schedule', 'remove', '987654'])).stdout).toContain(
      'business: Schedule with id 987654 does not exist',
    );
  }, 120_000);
});
