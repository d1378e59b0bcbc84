import { beforeAll, describe, expect, it } from 'vitest';
import { keyboard } from './actors';
import {
  apiCall,
  DESKTOP,
  embeddedViewSession,
  expectAccessible,
  newPage,
  PHONE,
  screenshot,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

interface Schedule {
  id: number;
  name: string;
  cron: string;
  enabled: boolean;
}

let token = '';
let viewId = 0;
/** A curator of the embedded view: schedules start jobs as their creator, a curator of the job's view. */
let curator = { username: '', password: '' };
let curatorToken = '';

async function schedules(): Promise<Schedule[]> {
  const answer = await apiCall('GET', '/schedule', undefined, token);
  return answer.payload['ArrayList<Schedule>'] as Schedule[];
}

describe('schedules', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, curator } = await embeddedViewSession());
    curatorToken = await tokenFor(curator.username, curator.password);
  });

  it('a curator repeats a job on a schedule, sees an invalid cron refused, edits, pauses and deletes it', async () => {
    const started = await apiCall(
      'POST',
      '/curation-job',
      { repositoryViewId: viewId, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' },
      curatorToken,
    );
    if (started.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${started.meta.message}`);
    const jobId = (started.payload.CurationJob as { id: number }).id;
    const name = unique('Nightly fixity');

    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator.username, curator.password);
    await page.goto(`/ui/jobs/${jobId}`);
    await page.getByRole('link', { name: 'Repeat on a schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'New schedule' }).waitFor();
    const job = JSON.parse(await page.getByRole('textbox', { name: 'Job' }).inputValue()) as {
      contextUri: string;
    };
    // The job's body as it ran: the root resolved to its IRI.
    expect(job).toMatchObject({ repositoryViewId: viewId, scope: 'SUBTREE', kind: 'FIXITY' });
    expect(job.contextUri).toMatch(/\/rest\/$/);

    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('textbox', { name: 'Cron' }).fill('61 * * * *');
    await page.getByRole('textbox', { name: 'Time zone' }).fill('UTC');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByText(/A schedule's cron must be five fields .* minute granularity/).waitFor();
    await expectAccessible(page, 'the schedule form with the service’s message');
    expect((await schedules()).map((s) => s.name)).not.toContain(name);

    await page.getByRole('textbox', { name: 'Cron' }).fill('0 3 * * *');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('0 3 * * *').waitFor();
    await row.getByText('Enabled').waitFor();
    await expectAccessible(page, 'the schedules list');
    await screenshot(page, 'schedules-list');

    await row.getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name: `Schedule: ${name}` }).waitFor();
    await page.getByRole('textbox', { name: 'Cron' }).fill('15 4 * * 1');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
    await row.getByText('15 4 * * 1').waitFor();

    await row.getByRole('button', { name: `Pause ${name}` }).click();
    await row.getByText('Paused').waitFor();
    expect((await schedules()).find((s) => s.name === name)).toMatchObject({
      enabled: false,
      cron: '15 4 * * 1',
    });
    await row.getByRole('button', { name: `Resume ${name}` }).click();
    await row.getByText('Enabled').waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete schedule' });
    await dialog.waitFor();
    await expectAccessible(page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await schedules()).map((s) => s.name)).not.toContain(name);
    await context.close();
  });

  it('creates a schedule with the keyboard only on a phone', async () => {
    const name = unique('Weekly fixity');
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page, curator.username, curator.password);
    await page.goto('/ui/schedules/new');
    await page.getByRole('heading', { level: 1, name: 'New schedule' }).waitFor();
    await keyboard.fill(page.getByRole('textbox', { name: 'Name' }), name);
    await keyboard.fill(page.getByRole('textbox', { name: 'Cron' }), '0 2 * * 0');
    await keyboard.fill(page.getByRole('textbox', { name: 'Time zone' }), 'Europe/Berlin');
    await keyboard.fill(
      page.getByRole('textbox', { name: 'Job' }),
      JSON.stringify({ repositoryViewId: viewId, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' }),
    );
    await expectAccessible(page, 'the schedule form on a phone');
    await keyboard.press(page.getByRole('button', { name: 'Create schedule' }));
    await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
    await page.getByRole('row').filter({ hasText: name }).getByText('Europe/Berlin').waitFor();
    await expectAccessible(page, 'the schedules list on a phone');
    const created = (await schedules()).find((s) => s.name === name);
    expect(created).toMatchObject({ cron: '0 2 * * 0', enabled: true });
    await apiCall('DELETE', '/schedule', { id: created?.id }, token);
    await context.close();
  });
});
