import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  curatorOf,
  DESKTOP,
  expectAccessible,
  newPage,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

/**
 * Issue 28 (DECISIONS.md §12): the browser pages a container's children through search (depth=1,
 * sort=name), 25 a page, and reads no child to name it; the breadcrumbs show names, not path segments.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const CHILDREN = 60;

interface Context {
  children: { triple: { object: string } | null }[];
}

let token = '';
let viewId = 0;
let viewName = '';
let prefix = '';

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

const childIris = (context: Context) =>
  context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));

/**
 * Creates a titled container under `parent` (which only this file writes to, so the one child the answer
 * lists that was not there before is the new one) and answers its IRI.
 */
async function createContainer(parent: string, title: string, before: ReadonlySet<string>): Promise<string> {
  const context = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=${encodeURIComponent(parent)}`,
      [{ predicate: TITLE, object: JSON.stringify(title) }],
      token,
    ),
  ).RepositoryViewContext as Context;
  const fresh = childIris(context).filter((iri) => !before.has(iri));
  if (fresh.length !== 1 || fresh[0] === undefined) throw new Error(`no single new child under ${parent}`);
  return fresh[0];
}

/** Waits until the view's index lists `count` children of `container` (the feed indexes within 2 s). */
async function indexed(container: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const results = ok(
      await apiCall(
        'GET',
        `${prefix}/search?contextUri=${encodeURIComponent(container)}&depth=1&limit=1`,
        undefined,
        token,
      ),
    ).SearchResults as { total: number };
    if (results.total === count) return;
    if (Date.now() > deadline)
      throw new Error(`the index lists ${String(results.total)} children, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const browseUrl = (uri: string) =>
  `/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(uri))}`;
const letter = (n: number, suffix: string) => `Letter ${String(n).padStart(2, '0')} ${suffix}`;

/** The API requests the page makes from now on (paths with their query). */
function recordApiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/repository-view-context/')) seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

/** Moves the keyboard focus forward (or back) until the element named `label` has it. */
async function tabTo(page: Page, label: string, backwards = false): Promise<void> {
  for (let step = 0; step < 80; step++) {
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
    if (focused === label) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`the keyboard never reached ${label}`);
}

describe('children named by the index, and named breadcrumbs', () => {
  const browser = useBrowser();
  const suffix = unique('of');
  const collectionTitle = unique('Collection');
  const seriesTitle = unique('Series');
  let collection = '';
  let series = '';
  let letters: string[] = [];
  let curator = { username: '', password: '' };

  beforeAll(async () => {
    token = await tokenFor();
    const views = ok(await apiCall('GET', '/repository-view', undefined, token)).LinkedList as {
      id: number;
      name: string;
      type: string;
    }[];
    const view = views.find((candidate) => candidate.name === 'Embedded repository');
    if (view === undefined) throw new Error('no embedded view');
    viewId = view.id;
    viewName = view.name;
    prefix = `/repository-view-context/${view.type}/${view.id}`;
    const rootChildren = new Set(
      childIris(
        ok(await apiCall('GET', `${prefix}?contextUri=`, undefined, token)).RepositoryViewContext as Context,
      ),
    );
    collection = await createContainer('', collectionTitle, rootChildren);
    series = await createContainer(collection, seriesTitle, new Set());
    const made = new Set<string>();
    // Created out of order, so the list's order is the index's sort by name, not creation order.
    for (let n = CHILDREN; n >= 1; n--) made.add(await createContainer(series, letter(n, suffix), made));
    letters = [...made];
    await indexed(series, CHILDREN);
    curator = await curatorOf(viewName);
  });

  it('shows 25 names a page from one search request, reading no child, with named breadcrumbs', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator.username, curator.password);
    const requests = recordApiRequests(page);
    await page.goto(browseUrl(series));
    await page.getByRole('heading', { level: 1, name: seriesTitle, exact: true }).waitFor();
    const children = page.getByRole('region', { name: 'Children' });
    const list = children.getByRole('list', { name: 'Children of this resource' });
    // Shown by name: before issue 28 that took a read of every child first.
    await list.getByRole('link', { name: letter(1, suffix) }).waitFor();

    expect(await list.getByRole('link').allTextContents()).toEqual(
      Array.from({ length: 25 }, (_, index) => letter(index + 1, suffix)),
    );
    await children.getByText(`${CHILDREN} children, page 1 of 3`).waitFor();
    // The container is read once and its page of children searched once; no child is read (before issue
    // 28, every child of a container of up to 100 was read for its name: 60 requests here).
    const childReads = requests.filter((path) =>
      letters.some((iri) => path.includes(`contextUri=${encodeURIComponent(iri)}`)),
    );
    expect(childReads).toEqual([]);
    const searches = requests.filter((path) => path.startsWith(`${prefix}/search?`));
    expect(searches).toHaveLength(1);
    expect(searches[0]).toContain('depth=1');
    expect(searches[0]).toContain('sort=name');
    expect(requests.length).toBeLessThanOrEqual(3);

    // The breadcrumbs: the view (its root), then the containers by their titles, then this one.
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(await crumbs.getByRole('link').allTextContents()).toEqual([viewName, collectionTitle]);
    await crumbs.getByText(seriesTitle).waitFor();
    await expectAccessible(page, 'a container of 60 children, page 1');

    // The next page: one more search, still no child read; the page is kept in the URL.
    await children.getByRole('button', { name: 'Next page' }).click();
    await list.getByRole('link', { name: letter(26, suffix) }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await list.getByRole('link').count()).toBe(25);
    expect(requests.filter((path) => path.startsWith(`${prefix}/search?`))).toHaveLength(2);
    expect(
      requests.filter((path) =>
        letters.some((iri) => path.includes(`contextUri=${encodeURIComponent(iri)}`)),
      ),
    ).toEqual([]);

    // Opening the collection through the breadcrumbs names it too.
    await crumbs.getByRole('link', { name: collectionTitle }).click();
    await page.getByRole('heading', { level: 1, name: collectionTitle, exact: true }).waitFor();
    await children.getByRole('link', { name: seriesTitle }).waitFor();
    await context.close();
  });

  it('pages by keyboard alone, the page kept in the URL', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator.username, curator.password);
    await page.goto(browseUrl(series));
    const list = page
      .getByRole('region', { name: 'Children' })
      .getByRole('list', { name: 'Children of this resource' });
    await list.getByRole('link', { name: letter(1, suffix) }).waitFor();

    await tabTo(page, 'Next page');
    await page.keyboard.press('Enter');
    await list.getByRole('link', { name: letter(26, suffix) }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await tabTo(page, 'Next page');
    await page.keyboard.press('Enter');
    await list.getByRole('link', { name: letter(60, suffix) }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('3');
    expect(await list.getByRole('link').count()).toBe(10);
    await expectAccessible(page, 'the last page of children, reached by keyboard');

    await tabTo(page, 'Previous page', true);
    await page.keyboard.press('Enter');
    await list.getByRole('link', { name: letter(50, suffix) }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    // A reload keeps the page.
    await page.reload();
    await list.getByRole('link', { name: letter(26, suffix) }).waitFor();
    await context.close();
  });
});
