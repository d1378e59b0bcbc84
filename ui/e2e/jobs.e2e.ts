import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  embeddedViewSession,
  baseUrl,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  screenshot,
  signIn,
  unique,
  useBrowser,
} from './fixtures';

const TITLE = 'http://purl.org/dc/terms/title';

interface Context {
  name: string | null;
  children: { name: string | null; triple: { object: string } | null }[];
}

let token = '';
let viewId = 0;
let prefix = '';
/** A curator of the embedded view: the jobs are started by them, as the workbench is meant for. */
let curator = { username: '', password: '' };

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

/** The IRIs of a context's children. */
function childIris(context: Context): string[] {
  return context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));
}

/** The IRIs of the children `parent` has now. */
async function childrenOf(parent: string): Promise<Set<string>> {
  const context = ok(
    await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(parent)}`, undefined, token),
  ).RepositoryViewContext as Context;
  return new Set(childIris(context));
}

/**
 * Creates a container with a title under `parent` and answers its IRI: the one new child whose own
 * context carries the title. (Not "the last child": on the shared service the root holds the other
 * specs' containers too, and once a job ran over another spec's container of 30 children, not its 3.)
 */
async function createContainer(parent: string, title: string): Promise<string> {
  const before = await childrenOf(parent);
  const context = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=${encodeURIComponent(parent)}`,
      [{ predicate: TITLE, object: `"${title}"@en` }],
      token,
    ),
  ).RepositoryViewContext as Context;
  const fresh = childIris(context).filter((iri) => !before.has(iri));
  for (const iri of fresh) if ((await nameOf(iri)) === title) return iri;
  throw new Error(`no new child titled ${title} under ${parent || 'the root'}`);
}

async function nameOf(uri: string): Promise<string | null> {
  const context = ok(
    await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(uri)}`, undefined, token),
  ).RepositoryViewContext as Context;
  return context.name;
}

async function createOperator(name: string, value: string): Promise<number> {
  const created = ok(
    await apiCall('POST', '/operators', { type: 'CONSTANT_OP', name, field: 'dcterms:title', value }, token),
  );
  return (created.ConstantOp as { id: number }).id;
}

/**
 * axe on a confirmation dialog, recorded rather than thrown at once so the walk goes on; the test asserts
 * the list at its end (the dialogs are the shared ConfirmAction).
 */
async function checkDialog(page: Page, what: string, problems: string[]): Promise<void> {
  try {
    await expectAccessible(page, what);
  } catch (failure) {
    problems.push(failure instanceof Error ? failure.message : String(failure));
  }
}

/** Waits until the job detail shows `state` (its badge). */
async function waitForState(page: Page, state: string): Promise<void> {
  await page.getByText(state, { exact: true }).first().waitFor({ timeout: 30_000 });
}

/** Waits for the job's counts in words; a timeout says what the page showed and what the API answers. */
async function waitForCounts(page: Page, text: string): Promise<void> {
  try {
    await page.getByText(text).waitFor({ timeout: 30_000 });
  } catch (error) {
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    const id = /(\d+)$/.exec(heading ?? '')?.[1];
    const shown = await page
      .getByRole('progressbar', { name: 'Job progress' })
      .locator('xpath=../..')
      .textContent();
    const job = id === undefined ? null : ok(await apiCall('GET', `/curation-job/${id}`, undefined, token));
    throw new Error(
      `no "${text}": the page shows ${JSON.stringify(shown)}; the API answers ${JSON.stringify(job)}`,
      {
        cause: error,
      },
    );
  }
}

describe('curation jobs', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, prefix, curator } = await embeddedViewSession());
  });

  it('a curator of the view previews a MAPPING job with operators in order, sees the diff, applies and undoes it', async () => {
    const collection = await createContainer('', unique('Collection'));
    const records = [];
    for (let n = 1; n <= 3; n++) records.push(await createContainer(collection, `Record ${n}`));
    const first = unique('Title first');
    const second = unique('Title second');
    await createOperator(first, 'Catalogued');
    await createOperator(second, 'Second pass');

    // Signed in as a curator of the view (the operators above are an administrator's, set up by API), who
    // starts the job from the container's screen.
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator.username, curator.password);
    await page.goto(`/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(collection))}`);
    await page.getByRole('link', { name: 'Start curation job' }).click();
    await page.getByRole('heading', { level: 1, name: 'New curation job' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Resource' }).inputValue()).resolves.toBe(collection);
    expect(await page.getByRole('radio', { name: 'Its children' }).isChecked()).toBe(true);

    // Without an operator the form says what is missing.
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByText('Add at least one operator').waitFor();
    await expectAccessible(page, 'the new-job form with an error');

    for (const name of [first, second]) {
      await page.getByRole('combobox', { name: 'Operator to add' }).click();
      await page.getByRole('option', { name: `${name} (dcterms:title)` }).click();
      await page.getByRole('button', { name: 'Add operator' }).click();
    }
    // The second moves first: the first operator's value is the one that stays.
    await page.getByRole('button', { name: `Move ${second} up` }).click();
    const chosen = page.getByRole('list', { name: 'Chosen operators' }).getByRole('listitem');
    await expect(chosen.allTextContents()).resolves.toEqual([
      expect.stringContaining(second),
      expect.stringContaining(first),
    ]);
    await expectAccessible(page, 'the new-job form');
    await screenshot(page, 'jobs-new');

    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
    await waitForState(page, 'PREVIEWED');
    await page.getByRole('progressbar', { name: 'Job progress' }).waitFor();
    // Read afresh: once in several loaded runs the live page kept counts older than the final ones
    // (closing note of issue 13); the counts a curator reopens the job to must be the final ones.
    await page.reload();
    await waitForState(page, 'PREVIEWED');
    await waitForCounts(page, '3 / 3 done');
    const changes = page.getByRole('region', { name: 'Changes' });
    await changes
      .getByText(/added: .*"Catalogued"/)
      .first()
      .waitFor();
    await expect(changes.getByText(/added: .*"Catalogued"/).count()).resolves.toBe(3);
    await expect(changes.getByText(/removed: .*"Record 1"@en/).count()).resolves.toBe(1);
    await expectAccessible(page, 'the job detail with its preview');
    await screenshot(page, 'jobs-detail');

    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const applyDialog = page.getByRole('dialog', { name: 'Apply the previewed changes?' });
    await applyDialog.waitFor();
    const dialogProblems: string[] = [];
    await checkDialog(page, 'the apply confirmation', dialogProblems);
    await applyDialog.getByRole('button', { name: 'Apply changes' }).click();
    await waitForState(page, 'APPLIED');
    await expect(nameOf(records[0] ?? '')).resolves.toBe('Catalogued');

    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    const undoDialog = page.getByRole('dialog', { name: 'Undo the applied changes?' });
    await undoDialog.waitFor();
    await checkDialog(page, 'the undo confirmation', dialogProblems);
    await undoDialog.getByRole('button', { name: 'Undo changes' }).click();
    await waitForState(page, 'UNDONE');
    await expect(nameOf(records[0] ?? '')).resolves.toBe('Record 1');

    await page.getByRole('link', { name: 'Curation jobs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Curation jobs' }).waitFor();
    await page
      .getByRole('link', { name: /^Job \d+$/ })
      .first()
      .waitFor();
    // The pointer off the navigation: axe judges the page, not a hover colour.
    await page.mouse.move(DESKTOP.width - 10, DESKTOP.height - 10);
    await expectAccessible(page, 'the jobs list');
    await screenshot(page, 'jobs-list');
    await context.close();
    expect(dialogProblems).toEqual([]);
  });

  it('marks a pure removal and lists the dates a job kept; the job form names a bare-field operator', async () => {
    const DATE = 'http://purl.org/dc/terms/date';
    const dated = await createContainer('', unique('Dates'));
    for (const date of ['ca. 1920', '03/25/2020', '2020-03-25'])
      ok(
        await apiCall(
          'POST',
          `${prefix}/metadata?contextUri=${encodeURIComponent(dated)}`,
          { subject: dated, predicate: DATE, object: date },
          token,
        ),
      );
    const dates = (
      ok(
        await apiCall(
          'POST',
          '/operators',
          {
            type: 'DATE_NORMALIZATION_OP',
            name: unique('ISO dates'),
            field: 'dcterms:date',
            value: 'yyyy-MM-dd',
          },
          token,
        ),
      ).DateNormalizationOp as { id: number }
    ).id;
    const bareName = unique('Bare title');
    ok(
      await apiCall(
        'POST',
        '/operators',
        { type: 'DEFAULT_OP', name: bareName, field: 'title', value: 'Untitled' },
        token,
      ),
    );
    const job = ok(
      await apiCall(
        'POST',
        '/curation-job',
        {
          repositoryViewId: viewId,
          contextUri: dated,
          scope: 'RESOURCE',
          kind: 'MAPPING',
          operators: [dates],
        },
        token,
      ),
    ).CurationJob as { id: number };

    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.goto(`/ui/jobs/${job.id}`);
    await waitForState(page, 'PREVIEWED');
    await page.getByText('1 of 1 resource change; 1 warning').waitFor();
    const changes = page.getByRole('region', { name: 'Changes' });
    // "03/25/2020" becomes the date already there: removed, and nothing replaces it.
    await changes.getByText(/Removed without replacement: .*"03\/25\/2020"/).waitFor();
    await changes
      .getByRole('note')
      .getByText(/could not transform dcterms:date value "ca\. 1920"; kept as it is/)
      .waitFor();
    await expectAccessible(page, 'the job detail with a pure removal and a warning');
    await screenshot(page, 'jobs-warnings');

    await page.goto(`/ui/jobs/new?viewId=${viewId}&uri=${encodeURIComponent(JSON.stringify(dated))}`);
    await page.getByRole('heading', { level: 1, name: 'New curation job' }).waitFor();
    await page.getByRole('combobox', { name: 'Operator to add' }).click();
    await page.getByRole('option', { name: `${bareName} (title)` }).click();
    await page.getByRole('button', { name: 'Add operator' }).click();
    await page.getByRole('status').getByText('These operators would match nothing').waitFor();
    await page.getByText(`${bareName} (title)`, { exact: false }).first().waitFor();
    await expectAccessible(page, 'the new-job form naming a bare-field operator');
    await context.close();
  });

  it('runs a FIXITY job over a binary, shows its report and downloads it as CSV (at 390×844)', async () => {
    const folder = await createContainer('', unique('Binaries'));
    const form = new FormData();
    form.append('contextUri', folder);
    form.append('file', new Blob(['fixity check content\n'], { type: 'text/plain' }), 'note.txt');
    const upload = await fetch(`${baseUrl()}${prefix}/resource`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(((await upload.json()) as { meta: { status: string } }).meta.status).toBe('SUCCESS');

    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page, curator.username, curator.password);
    await page.goto(`/ui/jobs/new?viewId=${viewId}&uri=${encodeURIComponent(JSON.stringify(folder))}`);
    await page.getByRole('heading', { level: 1, name: 'New curation job' }).waitFor();
    await page.getByRole('radio', { name: 'Fixity' }).check();
    await page.getByRole('radio', { name: 'The whole subtree' }).check();
    await expectAccessible(page, 'the new-job form for FIXITY at 390×844');
    await page.getByRole('button', { name: 'Start job' }).click();
    await waitForState(page, 'COMPLETED');
    const report = page.getByRole('region', { name: 'Fixity report' });
    await report.getByText('SUCCESS', { exact: true }).first().waitFor();
    await expectAccessible(page, 'the fixity report at 390×844');

    const download = page.waitForEvent('download');
    await report.getByRole('button', { name: 'Download report (CSV)' }).click();
    expect((await download).suggestedFilename()).toMatch(/^curation-job-\d+-fixity\.csv$/);
    await context.close();
  });
});
