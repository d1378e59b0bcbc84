import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  screenshot,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

const DCTERMS_TITLE = 'http://purl.org/dc/terms/title';

interface View {
  id: number;
  name: string;
  rootUri: string;
  type: string;
}

interface ContextAnswer {
  name: string | null;
  children: { triple: { object: string } | null }[];
}

let token = '';
let view: View;

const contextPath = (uri?: string) =>
  `/repository-view-context/${view.type}/${view.id}?contextUri=${encodeURIComponent(uri ?? '')}`;

async function readContext(uri?: string): Promise<ContextAnswer> {
  const answer = await apiCall('GET', contextPath(uri), undefined, token);
  if (answer.meta.status !== 'SUCCESS') throw new Error(`GET ${contextPath(uri)}: ${answer.meta.message}`);
  return answer.payload.RepositoryViewContext as ContextAnswer;
}

const childrenOf = (context: ContextAnswer) =>
  new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));

/** Creates a titled container under `parent` through the API and answers its IRI. */
async function createChild(parent: string | undefined, title: string): Promise<string> {
  const before = childrenOf(await readContext(parent));
  const answer = await apiCall(
    'POST',
    `/repository-view-context/${view.type}/${view.id}/children?contextUri=${encodeURIComponent(parent ?? '')}`,
    [{ subject: '', predicate: DCTERMS_TITLE, object: JSON.stringify(title) }],
    token,
  );
  expect(answer.meta.status).toBe('SUCCESS');
  const fresh = [...childrenOf(answer.payload.RepositoryViewContext as ContextAnswer)].filter(
    (iri) => !before.has(iri),
  );
  for (const iri of fresh) if ((await readContext(iri)).name === title) return iri;
  throw new Error(`the new child ${title} was not found`);
}

const browseUrl = (uri?: string) =>
  `/ui/views/${view.id}/browse${uri === undefined ? '' : `?uri=${encodeURIComponent(JSON.stringify(uri))}`}`;

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

describe('the repository browser', () => {
  const browser = useBrowser();
  let parent = '';
  let workspace = '';
  const workspaceTitle = unique('Workspace');
  const parentTitle = unique('Paged');

  beforeAll(async () => {
    token = await tokenFor();
    const views = (await apiCall('GET', '/repository-view', undefined, token)).payload.LinkedList as View[];
    const found = views.find((candidate) => candidate.name === 'Embedded repository') ?? views[0];
    if (found === undefined) throw new Error('no repository view to browse');
    view = found;
    workspace = await createChild(undefined, workspaceTitle);
    parent = await createChild(undefined, parentTitle);
    for (let index = 1; index <= 27; index += 1)
      await createChild(parent, `Item ${String(index).padStart(2, '0')} ${parentTitle}`);
  });

  it('adds a child, opens it, adds, edits and deletes metadata, and goes back by the breadcrumbs', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.getByRole('link', { name: view.name }).first().click();
    await heading(page, 'Root').waitFor();
    await expectAccessible(page, 'the root');
    // Other specs add children to the root too: work inside a container of this test's own.
    await page.goto(browseUrl(workspace));
    await heading(page, workspaceTitle).waitFor();

    const title = unique('Letters');
    await page.getByRole('button', { name: 'Add child' }).click();
    const addChild = page.getByRole('dialog', { name: 'Add child' });
    await addChild.waitFor();
    await expectAccessible(page, 'the Add child dialog');
    await addChild.getByRole('button', { name: 'Create' }).click();
    await addChild.getByText('Enter a title').waitFor();
    await addChild.getByLabel('Title').fill(title);
    await addChild.getByRole('button', { name: 'Create' }).click();
    await addChild.waitFor({ state: 'hidden' });

    const children = page.getByRole('region', { name: 'Children' });
    await children.getByRole('link', { name: title }).click();
    await heading(page, title).waitFor();
    await page.getByText('This container has no children yet.').waitFor();
    await expectAccessible(page, 'a new container');

    // Add a dcterms:title through the Property picker.
    const second = unique('Second title');
    await page.getByRole('button', { name: 'Add metadata' }).click();
    const addMetadata = page.getByRole('dialog', { name: 'Add metadata' });
    await addMetadata.waitFor();
    await addMetadata.getByRole('combobox', { name: 'Property' }).fill('dcterms:ti');
    await page
      .getByRole('option', { name: /^dcterms:title/ })
      .first()
      .waitFor();
    await expectAccessible(page, 'the Add metadata dialog with the picker open');
    await page
      .getByRole('option', { name: /^dcterms:title/ })
      .first()
      .click();
    expect(await addMetadata.getByRole('combobox', { name: 'Property' }).inputValue()).toBe('dcterms:title');
    await addMetadata.getByLabel('Value').fill(second);
    await addMetadata.getByRole('button', { name: 'Save' }).click();
    await addMetadata.waitFor({ state: 'hidden' });
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByText(second).waitFor();

    // Edit it inline.
    const edited = unique('Edited');
    await metadata.getByRole('button', { name: `Edit dcterms:title ${second}` }).click();
    await metadata.getByLabel('New value of dcterms:title').fill(edited);
    await expectAccessible(page, 'an inline edit');
    await metadata.getByRole('button', { name: 'Save' }).click();
    await metadata.getByText(edited).waitFor();
    expect(await metadata.getByText(second).count()).toBe(0);
    await screenshot(page, 'browser-resource');

    // Delete it: asks first.
    await metadata.getByRole('button', { name: `Delete dcterms:title ${edited}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete dcterms:title?' });
    await confirm.waitFor();
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await metadata.getByText(edited).waitFor({ state: 'detached' });
    await metadata.getByText(title).waitFor();

    // Back to the root through the breadcrumbs.
    await page
      .getByRole('navigation', { name: 'Breadcrumbs' })
      .getByRole('link', { name: view.name })
      .click();
    await heading(page, 'Root').waitFor();
    await context.close();
  });

  it('pages children 25 at a time, shows changes made elsewhere live, and runs a SPARQL Update', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.goto(browseUrl(parent));
    await heading(page, parentTitle).waitFor();
    const children = page.getByRole('region', { name: 'Children' });
    await children.getByText('27 children, page 1 of 2').waitFor();
    await children.getByRole('link', { name: `Item 25 ${parentTitle}` }).waitFor();
    // Sorted by name (the index's, through search): items 1–25 here, 26 and 27 on page 2.
    await children.getByRole('link', { name: `Item 26 ${parentTitle}` }).waitFor({ state: 'detached' });
    await children.getByRole('link', { name: `Item 01 ${parentTitle}` }).waitFor();
    await children.getByRole('button', { name: 'Page 2' }).click();
    await children.getByRole('link', { name: `Item 27 ${parentTitle}` }).waitFor();
    await children.getByRole('link', { name: `Item 26 ${parentTitle}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await children.getByRole('link').count()).toBe(2);
    await expectAccessible(page, 'the second page of children');

    // A change through the API appears without a reload.
    const live = unique('Live');
    const added = await apiCall(
      'POST',
      `/repository-view-context/${view.type}/${view.id}/metadata?contextUri=${encodeURIComponent(parent)}`,
      { subject: parent, predicate: 'http://purl.org/dc/terms/description', object: JSON.stringify(live) },
      token,
    );
    expect(added.meta.status).toBe('SUCCESS');
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByText(live).waitFor({ timeout: 15_000 });

    // The SPARQL box: a parse failure under the box, then an INSERT DATA.
    const box = page.getByLabel('SPARQL Update');
    await page.getByRole('button', { name: 'Show query help' }).click();
    await page.getByText('PREFIX dcterms:').first().waitFor();
    await box.fill('INSERT NONSENSE');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByText(/parse|expected|syntax/i)
      .first()
      .waitFor();
    await expectAccessible(page, 'a refused SPARQL Update');
    const subject = unique('Sparql');
    await box.fill(`INSERT DATA { <> <http://purl.org/dc/terms/subject> "${subject}" . }`);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('The update was applied.').waitFor();
    await metadata.getByText(subject).waitFor();
    await context.close();
  });

  it('says what went wrong for an unknown resource, and works on a phone', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await page.goto(browseUrl(`${parent}/${unique('missing')}`));
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await expectAccessible(page, 'an unknown resource');
    await page.getByRole('link', { name: 'Open the view’s root' }).click();
    await heading(page, 'Root').waitFor();

    await page.goto(browseUrl(parent));
    await heading(page, parentTitle).waitFor();
    await page.getByRole('region', { name: 'Children' }).getByText('27 children, page 1 of 2').waitFor();
    await expectAccessible(page, 'a container at 390×844');
    await screenshot(page, 'browser-phone');
    await context.close();
  });
});
