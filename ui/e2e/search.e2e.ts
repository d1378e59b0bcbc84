import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyboard, pointer, tabTo, type Actor } from './actors';
import {
  apiCall,
  embeddedViewSession,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  screenshot,
  signIn,
  unique,
  useBrowser,
} from './fixtures';

const DCTERMS = 'http://purl.org/dc/terms/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
/** 30 records and their collection: two pages of 25. */
const RECORDS = 30;
/** Records 1–5 are dcterms:BibliographicResource; records 1–10 carry a dcterms:date. */
const TYPED = 5;
const DATED = 10;

interface Context {
  children: { triple: { object: string } | null }[];
}

let token = '';
let viewId = 0;
let prefix = '';
let curator = { username: '', password: '' };
/** A word no other spec writes: letters only, so every engine keeps it one token. */
const word = `quill${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;
let collection = '';

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

const childIris = (context: Context) =>
  new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));

/** Creates one container under `parent` carrying `triples` and answers its IRI (the one new child). */
async function createContainer(
  parent: string,
  triples: { predicate: string; object: string }[],
): Promise<string> {
  const before = childIris(
    ok(await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(parent)}`, undefined, token))
      .RepositoryViewContext as Context,
  );
  const after = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=${encodeURIComponent(parent)}`,
      triples.map((triple) => ({ subject: '', ...triple })),
      token,
    ),
  ).RepositoryViewContext as Context;
  const fresh = [...childIris(after)].filter((iri) => !before.has(iri));
  if (fresh.length !== 1) throw new Error(`expected one new child under ${parent}, found ${fresh.length}`);
  return fresh[0]!;
}

/** GET …/search as the API answers it (the screen must show the same). */
async function searchApi(q: string, contextUri?: string) {
  const query = new URLSearchParams({ q, ...(contextUri === undefined ? {} : { contextUri }) });
  return apiCall('GET', `${prefix}/search?${query.toString()}`, undefined, token);
}

/** Writes reach the index within seconds (DECISIONS.md §12): waits until all the records are found. */
async function waitUntilIndexed(): Promise<void> {
  const deadline = Date.now() + 20_000;
  let total: unknown;
  while (Date.now() < deadline) {
    const answer = await searchApi(word, collection);
    total = (answer.payload.SearchResults as { total?: number } | undefined)?.total;
    if (total === RECORDS + 1) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the index holds ${String(total)} of the ${RECORDS + 1} resources after 20 s`);
}

const resultsRegion = (page: Page) => page.getByRole('region', { name: 'Results', exact: true });
const filtersRegion = (page: Page) => page.getByRole('complementary', { name: 'Filters', exact: true });
const searchUrl = (search: Record<string, string>) =>
  `/ui/views/${viewId}/search?${Object.entries(search)
    .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`)
    .join('&')}`;

/** A search parameter of the address as the router wrote it (JSON where a plain string would be misread). */
function searchParam(page: Page, key: string): unknown {
  const raw = new URL(page.url()).searchParams.get(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Waits for the results' count line, e.g. "31 results, 1–25 shown". */
async function waitForCount(page: Page, text: string): Promise<void> {
  await resultsRegion(page).getByRole('status').getByText(text, { exact: true }).waitFor();
}

async function hitNames(page: Page): Promise<string[]> {
  return resultsRegion(page)
    .getByRole('list', { name: 'Search results' })
    .getByRole('listitem')
    .getByRole('link')
    .allTextContents();
}

describe('search', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, prefix, curator } = await embeddedViewSession());

    collection = await createContainer('', [
      { predicate: `${DCTERMS}title`, object: `"Collection ${word}"` },
    ]);
    for (let n = 1; n <= RECORDS; n++) {
      const number = String(n).padStart(2, '0');
      await createContainer(collection, [
        { predicate: `${DCTERMS}title`, object: `"Record ${number} of the ${word} letters"` },
        ...(n <= TYPED ? [{ predicate: RDF_TYPE, object: `${DCTERMS}BibliographicResource` }] : []),
        ...(n <= DATED ? [{ predicate: `${DCTERMS}date`, object: `"2020-01-${number}"` }] : []),
      ]);
    }
    await waitUntilIndexed();
  }, 180_000);

  it('a curator searches a word, pages, filters by a facet and removes it, and starts a job on the results — keyboard only at 1280×800', async () => {
    const operatorName = unique('Search title');
    ok(
      await apiCall(
        'POST',
        '/operators',
        { type: 'CONSTANT_OP', name: operatorName, field: 'dcterms:title', value: 'Catalogued' },
        token,
      ),
    );
    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, keyboard, 'search-keyboard', async () => {
      const act: Actor = keyboard;
      await page.goto('/ui/');
      await act.fill(page.getByLabel('Username'), curator.username);
      await act.fill(page.getByLabel('Password', { exact: true }), curator.password);
      await act.press(page.getByRole('button', { name: 'Sign in' }));
      await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();
      await page.goto(`/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(collection))}`);
      await page.getByRole('heading', { level: 1, name: `Collection ${word}` }).waitFor();

      // The browser's search box, inside this container.
      await act.fill(page.getByRole('searchbox', { name: 'Search' }), word);
      expect(await page.getByRole('checkbox', { name: 'Only inside this container' }).isChecked()).toBe(true);
      await act.press(page.getByRole('button', { name: 'Search', exact: true }));
      await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      expect(searchParam(page, 'q')).toBe(word);
      expect(searchParam(page, 'contextUri')).toBe(collection);

      // Sorted by name (relevance ties among the records are in no fixed order): the collection, then the
      // records in order.
      expect(await hitNames(page)).toHaveLength(25);
      await chooseByKeyboard(page, page.getByRole('combobox', { name: 'Sort by' }), 'Name');
      const recordName = (n: number) => `Record ${String(n).padStart(2, '0')} of the ${word} letters`;
      const byName = [`Collection ${word}`, ...Array.from({ length: RECORDS }, (_, i) => recordName(i + 1))];
      await expect.poll(() => hitNames(page)).toEqual(byName.slice(0, 25));
      expect(searchParam(page, 'sort')).toBe('name');

      // Hits: names as links, types abbreviated through the view's schemas, the matched word marked.
      const results = resultsRegion(page);
      const first = results.getByRole('listitem').filter({ hasText: `Record 01 of the ${word} letters` });
      await first.getByRole('link', { name: `Record 01 of the ${word} letters` }).waitFor();
      await first.getByText('dcterms:BibliographicResource', { exact: true }).waitFor();
      await first.getByText(/^Modified /).waitFor();
      // The snippet's **-wrapped word as a <mark> element (what a reader's highlighting and the snippet's
      // text depend on); Playwright has no role for <mark>, so the element is read directly.
      const marked = await first.evaluate((item) =>
        Array.from(item.querySelectorAll('mark'), (mark) => mark.textContent.toLowerCase()),
      );
      expect(marked).toContain(word);
      expect(await results.getByText('**', { exact: false }).count()).toBe(0);
      await expectAccessible(page, 'the search results');
      await screenshot(page, 'search-results');

      // The second page, by the pagination's named buttons.
      await act.press(
        page.getByRole('navigation', { name: 'Result pages' }).getByRole('button', { name: 'Page 2' }),
      );
      await waitForCount(page, `${RECORDS + 1} results, 26–${RECORDS + 1} shown`);
      expect(await hitNames(page)).toEqual(byName.slice(25));
      expect(searchParam(page, 'offset')).toBe(25);

      // A facet as a filter: the type's term joins the query, the first page again, the filter removable.
      const typeFacet = filtersRegion(page)
        .getByRole('region', { name: 'Types', exact: true })
        .getByRole('button', { name: `dcterms:BibliographicResource (${TYPED})` });
      await act.press(typeFacet);
      await waitForCount(page, `${TYPED} results`);
      const remove = page.getByRole('button', { name: 'Remove filter type:dcterms:BibliographicResource' });
      await remove.waitFor();
      expect(await typeFacet.getAttribute('aria-pressed')).toBe('true');
      expect(searchParam(page, 'offset')).toBeUndefined();
      expect(searchParam(page, 'filter')).toEqual(['type:dcterms:BibliographicResource']);
      await expectAccessible(page, 'the results filtered by a type');
      await act.press(remove);
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      expect(await remove.count()).toBe(0);

      // Resources without a date, then those with one: the filter the job runs over.
      await act.press(
        filtersRegion(page)
          .getByRole('region', { name: 'Properties', exact: true })
          .getByRole('button', { name: 'Without dcterms:date' }),
      );
      await waitForCount(page, `${RECORDS + 1 - DATED} results`);
      await act.press(page.getByRole('button', { name: 'Remove filter -has:dcterms:date' }));
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      await act.press(typeFacet);
      await waitForCount(page, `${TYPED} results`);

      // A curation job over exactly these results.
      await act.press(page.getByRole('link', { name: 'Start curation job on these results' }));
      await page.getByRole('heading', { level: 1, name: 'New curation job' }).waitFor();
      expect(await page.getByRole('radio', { name: 'What a search finds in it' }).isChecked()).toBe(true);
      const query = `${word} type:dcterms:BibliographicResource`;
      expect(await page.getByRole('textbox', { name: 'Query' }).inputValue()).toBe(query);
      expect(await page.getByRole('textbox', { name: 'Resource' }).inputValue()).toBe(collection);
      await act.choose(page.getByRole('combobox', { name: 'Operator to add' }), operatorName);
      await act.press(page.getByRole('button', { name: 'Add operator' }));
      await expectAccessible(page, 'the new-job form with a query');
      await act.press(page.getByRole('button', { name: 'Start job' }));
      await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
      await page.getByText('PREVIEWED', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByText(`${TYPED} / ${TYPED} done`).waitFor({ timeout: 30_000 });
      await page.getByText(query, { exact: true }).waitFor();
      const changes = page.getByRole('region', { name: 'Changes' });
      await changes
        .getByText(/added: .*"Catalogued"/)
        .first()
        .waitFor();
      await expect(changes.getByText(/added: .*"Catalogued"/).count()).resolves.toBe(TYPED);
      await expectAccessible(page, 'the preview of a job over search results');
    });
    await context.close();
  }, 180_000);

  it('shows the service’s message for a malformed query beside the box, not a crash', async () => {
    const malformed = `${word} "unclosed`;
    const answer = await searchApi(malformed);
    expect(answer.meta.status).toBe('INVALID');
    const fields = (answer.payload.ValidationResults as { messages?: Record<string, Record<string, string>> })
      .messages;
    const message =
      Object.values(fields?.q ?? Object.values(fields ?? {})[0] ?? {})[0] ?? answer.meta.message;

    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, pointer, 'search-invalid', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(searchUrl({ q: word }));
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.fill(malformed);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => box.getAttribute('aria-invalid')).toBe('true');
      // The message is the box's own description (read with it), and the results say why they are gone.
      const described = await box.evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toContain(message);
      await page.getByRole('alert').filter({ hasText: 'The query cannot be run' }).waitFor();
      expect(await hitNames(page)).toEqual([]);
      await expectAccessible(page, 'a malformed query');
      // Corrected, it searches again.
      await box.fill(word);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      expect(await box.getAttribute('aria-invalid')).not.toBe('true');
    });
    await context.close();
  });

  it('shows the index status, and Reindex starts an index job the screen links to', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, pointer, 'search-reindex', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(searchUrl({ q: word }));
      const index = page.getByRole('region', { name: 'Index', exact: true });
      await index.getByText(/\d+ resources? indexed/).waitFor();
      await index.getByRole('button', { name: 'Reindex' }).click();
      const started = index.getByRole('status').getByRole('link', { name: /^Job \d+$/ });
      await started.waitFor();
      const jobName = (await started.textContent()) ?? '';
      await expectAccessible(page, 'the index status after Reindex');
      // The status is read again until the job records itself as the view's last whole index.
      await index
        .getByText(/^Last index job:/)
        .getByRole('link', { name: jobName, exact: true })
        .waitFor({ timeout: 60_000 });
      await started.click();
      await page.getByRole('heading', { level: 1, name: `Curation ${jobName.toLowerCase()}` }).waitFor();
      await page.getByText('INDEX', { exact: true }).waitFor();
      await page
        .getByText(/^(QUEUED|RUNNING|COMPLETED)$/)
        .first()
        .waitFor();
    });
    await context.close();
  });

  it('works at 390×844: results, facets and a chosen filter, axe clean', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await run(page, pointer, 'search-phone', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(searchUrl({ q: word, contextUri: collection }));
      await waitForCount(page, `${RECORDS + 1} results, 1–25 shown`);
      await expectAccessible(page, 'the search results at 390×844');
      await filtersRegion(page)
        .getByRole('button', { name: `dcterms:BibliographicResource (${TYPED})` })
        .click();
      await waitForCount(page, `${TYPED} results`);
      await page.getByRole('button', { name: 'Remove filter type:dcterms:BibliographicResource' }).waitFor();
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await expectAccessible(page, 'the filtered results at 390×844');
      await screenshot(page, 'search-phone');
    });
    await context.close();
  });
});

/**
 * Picks an option of a Select with the keyboard alone: Tab to it, arrows down the open list to the option,
 * Enter (a Select that is not searchable takes no typed text).
 */
async function chooseByKeyboard(page: Page, select: Locator, option: string): Promise<void> {
  await tabTo(page, select);
  const wanted = page.getByRole('option', { name: option, exact: true });
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('ArrowDown');
    if ((await wanted.count()) > 0 && (await wanted.getAttribute('data-combobox-selected')) !== null) break;
  }
  await page.keyboard.press('Enter');
  await expect.poll(() => select.inputValue()).toBe(option);
}

/** Runs a test's steps; on failure keeps a screenshot of what the screen showed. */
async function run(page: Page, actor: Actor, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    await page
      .screenshot({ path: path.join(os.tmpdir(), `${name}-${actor.name}.png`) })
      .catch(() => undefined);
    throw error;
  }
}
