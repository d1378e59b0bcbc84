import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { keyboard, pointer } from './actors';
import {
  apiCall,
  baseUrl,
  DESKTOP,
  expectAccessible,
  newCurator,
  newPage,
  PHONE,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

/*
 * Copying between views in the workbench (DECISIONS.md §16, issue 32), signed in as a curator of both views
 * (not the administrator): the embedded repository backs the source view (its root) and a second view
 * rooted at a container of its own, outside what is copied. `Copy to another view` on a container opens a
 * dialog: the target view and container, `Preview` shows the dry run's numbers, `Copy` applies it; the job's
 * screen shows it APPLIED with the report (a binary's digest MATCH) and its CSV; Undo removes the copies. A
 * second preview into the same place lists its conflicts and offers no `Copy`. From search results the hits
 * are copied (QUERY): over the whole view the service refuses (the target lies inside the source), inside the
 * searched collection it copies. Axe at 1280×800 and 390×844; at the phone size driven by the keyboard alone.
 */

const TITLE = 'http://purl.org/dc/terms/title';
let admin = '';
let sourceViewId = 0;
let sourcePrefix = '';
let targetViewName = '';
let targetPrefix = '';
let targetRoot = '';
/** Where this file's containers go: one child of the root, so other files' root listings stay as they were. */
let home = '';
let curator = { username: '', password: '' };
const word = `copy${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;

type Answer = Awaited<ReturnType<typeof apiCall>>;

function ok(answer: Answer): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

interface Context {
  children: { triple: { object: string } | null }[];
}

const childrenOf = (context: Context) =>
  new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));

async function readContext(prefix: string, uri: string): Promise<Context> {
  return ok(await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(uri)}`, undefined, admin))
    .RepositoryViewContext as Context;
}

/** Creates a container under `parent` of the source view titled `title` and answers its IRI. */
async function createContainer(parent: string, title: string): Promise<string> {
  const before = childrenOf(await readContext(sourcePrefix, parent));
  const after = ok(
    await apiCall(
      'POST',
      `${sourcePrefix}/children?contextUri=${encodeURIComponent(parent)}`,
      [{ subject: '', predicate: TITLE, object: `"${title}"@en` }],
      admin,
    ),
  ).RepositoryViewContext as Context;
  const fresh = [...childrenOf(after)].filter((iri) => !before.has(iri));
  if (fresh.length !== 1) throw new Error(`expected one new child under ${parent}`);
  return fresh[0]!;
}

async function upload(parent: string, filename: string, content: string): Promise<void> {
  const form = new FormData();
  form.append('contextUri', parent);
  form.append('file', new Blob([content], { type: 'text/plain' }), filename);
  const response = await fetch(`${baseUrl()}${sourcePrefix}/resource`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  ok((await response.json()) as Answer);
}

/**
 * A new curator of the embedded view and of a second view rooted at a new container of the same
 * repository (its credentials: the embedded repository's, as the service keeps them).
 */
async function twoViews(): Promise<void> {
  admin = await tokenFor();
  const views = ok(await apiCall('GET', '/repository-view', undefined, admin)).LinkedList as {
    id: number;
    name: string;
  }[];
  const embedded = views.find((view) => view.name === 'Embedded repository');
  if (embedded === undefined) throw new Error('no embedded view');
  sourceViewId = embedded.id;
  sourcePrefix = `/repository-view-context/FEDORA/${embedded.id}`;
  const source = ok(await apiCall('GET', `/repository-view/${embedded.id}`, undefined, admin))
    .RepositoryView as { username: string; curators: { id: number }[]; schemas: { id: number }[] };
  const { id, username, password } = await newCurator();
  curator = { username, password };
  ok(
    await apiCall(
      'PUT',
      '/repository-view',
      { ...source, password: null, curators: [...source.curators.map((c) => ({ id: c.id })), { id }] },
      admin,
    ),
  );
  home = await createContainer('', `Copy tests ${word}`);
  targetRoot = await createContainer(home, `Copies arrive here ${word}`);
  targetViewName = unique('Copy target');
  const repositoryPassword =
    process.env.SCRIPTORIUM_REPOSITORY_PASSWORD ??
    fs.readFileSync(path.join(inject('dataDir'), 'repository-password'), 'utf8').trim();
  const created = ok(
    await apiCall(
      'POST',
      '/repository-view',
      {
        type: 'FEDORA',
        name: targetViewName,
        rootUri: targetRoot,
        username: source.username,
        password: repositoryPassword,
        schemas: source.schemas.map((schema) => ({ id: schema.id })),
        curators: [{ id }],
      },
      admin,
    ),
  ).RepositoryView as { id: number };
  targetPrefix = `/repository-view-context/FEDORA/${created.id}`;
}

const browseUrl = (uri: string) =>
  `/ui/views/${sourceViewId}/browse?uri=${encodeURIComponent(JSON.stringify(uri))}`;

async function run(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), `${name}.png`) }).catch(() => undefined);
    throw error;
  }
}

describe('copying between views', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    await twoViews();
  });

  for (const [size, viewport, actor] of [
    ['desktop', DESKTOP, pointer],
    ['phone', PHONE, keyboard],
  ] as const)
    it(`a curator of both views previews, copies and sees the report (${size}, ${actor.name})`, async () => {
      const collection = await createContainer(home, `Letters ${word} ${size}`);
      await createContainer(collection, `Box one ${word}`);
      await upload(collection, 'letter.txt', `a letter to copy (${size})\n`);
      // The desktop copies into the target view's root; the phone into a container typed in.
      const into = size === 'desktop' ? targetRoot : await createTargetContainer(`Shelf ${word}`);
      const { context, page } = await newPage(browser(), viewport);
      await run(page, `copies-${size}`, async () => {
        await signIn(page, curator.username, curator.password);
        await page.goto(browseUrl(collection));
        await page.getByRole('heading', { level: 1, name: `Letters ${word} ${size}` }).waitFor();
        await actor.press(page.getByRole('button', { name: 'Copy to another view' }));
        const dialog = page.getByRole('dialog', { name: 'Copy this container to another view' });
        await dialog.waitFor();
        await expectAccessible(page, `the copy dialog (${size})`);

        await actor.choose(dialog.getByLabel(/^Target view/).first(), targetViewName);
        const container = dialog.getByRole('textbox', { name: /^Target container/ });
        expect(await container.inputValue()).toBe(targetRoot);
        if (into !== targetRoot) await actor.fill(container, into);
        expect(await dialog.getByRole('radio', { name: 'Everything below it' }).isChecked()).toBe(true);
        await actor.press(dialog.getByRole('button', { name: 'Preview' }));
        await dialog.getByText('The dry run is done; nothing has been written.').waitFor({ timeout: 30_000 });
        await dialog.getByText(/Would copy 3 resources/).waitFor();
        await dialog.getByText(/2 containers/).waitFor();
        expect(childrenOf(await readContext(targetPrefix, into)).size).toBe(0);
        await expectAccessible(page, `the dry run's numbers (${size})`);

        await actor.press(dialog.getByRole('button', { name: 'Copy', exact: true }));
        await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
        await page.getByText('APPLIED', { exact: true }).first().waitFor({ timeout: 30_000 });
        await page.getByText('COPY', { exact: true }).first().waitFor();
        await page.getByText(/Copied 3 resources/).waitFor();
        const report = page.getByRole('region', { name: 'Copy report' });
        await expect.poll(() => report.getByText('COPIED', { exact: true }).count()).toBe(3);
        await report
          .getByText(/MATCH$/)
          .first()
          .waitFor();
        await report.getByText('Versions are not copied, only each resource’s current state.').waitFor();
        await expectAccessible(page, `an APPLIED COPY job with its report (${size})`);
        const copies = [...childrenOf(await readContext(targetPrefix, into))];
        expect(copies).toHaveLength(1);
        expect(copies[0]).toContain(collection.replace(/\/$/, '').split('/').pop());

        const downloading = page.waitForEvent('download');
        await actor.press(report.getByRole('button', { name: 'Download report (CSV)' }));
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(/^curation-job-\d+-copy\.csv$/);
        const csv = fs
          .readFileSync(await download.path(), 'utf8')
          .trim()
          .split(/\r?\n/);
        expect(csv[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error');
        expect(csv).toHaveLength(4);

        if (size === 'phone') {
          // The same copy again: the dry run lists what is in the way and offers no Copy.
          await page.goto(browseUrl(collection));
          await actor.press(page.getByRole('button', { name: 'Copy to another view' }));
          await actor.choose(dialog.getByLabel(/^Target view/).first(), targetViewName);
          await actor.fill(dialog.getByRole('textbox', { name: /^Target container/ }), into);
          await actor.press(dialog.getByRole('button', { name: 'Preview' }));
          await dialog.getByText('Already in the target').waitFor({ timeout: 30_000 });
          expect(await dialog.getByRole('listitem').count()).toBe(3);
          expect(await dialog.getByRole('button', { name: 'Copy', exact: true }).isDisabled()).toBe(true);
          await expectAccessible(page, 'a dry run with conflicts (phone)');
        } else {
          // Undo: the copies go.
          await actor.press(page.getByRole('button', { name: 'Undo' }));
          await actor.press(page.getByRole('button', { name: 'Undo changes' }));
          await page.getByText('UNDONE', { exact: true }).first().waitFor({ timeout: 30_000 });
          expect(childrenOf(await readContext(targetPrefix, into)).size).toBe(0);
        }
      });
      await context.close();
    });

  it('a curator copies what a search finds into a container of the other view (desktop, pointer)', async () => {
    const hit = `${word}hit`;
    const collection = await createContainer(home, `Search source ${word}`);
    await createContainer(collection, `${hit} one`);
    await createContainer(collection, `${hit} two`);
    const shelf = await createTargetContainer(`Found ${word}`);
    // Writes reach the search index within seconds (DECISIONS.md §12).
    await expect
      .poll(
        async () =>
          (
            ok(await apiCall('GET', `${sourcePrefix}/search?q=${hit}`, undefined, admin)).SearchResults as {
              total: number;
            }
          ).total,
        { timeout: 20_000, interval: 250 },
      )
      .toBe(2);
    const { context, page } = await newPage(browser(), DESKTOP);
    await run(page, 'copies-search', async () => {
      await signIn(page, curator.username, curator.password);
      await page.goto(`/ui/views/${sourceViewId}/search?q=${hit}`);
      await page.getByText('2 results').waitFor();
      await page.getByRole('button', { name: 'Copy to another view' }).click();
      const dialog = page.getByRole('dialog', { name: 'Copy these results to another view' });
      await dialog.waitFor();
      expect(await dialog.getByRole('radio').count()).toBe(0);
      await pointer.choose(dialog.getByLabel(/^Target view/).first(), targetViewName);
      await dialog.getByRole('textbox', { name: /^Target container/ }).fill(shelf);
      await dialog.getByRole('button', { name: 'Preview' }).click();
      // Over the whole view the target lies inside the source: refused, named beside the field.
      await dialog
        .getByRole('textbox', { name: /^Target container/ })
        .and(page.locator('[aria-invalid="true"]'))
        .waitFor();
      await dialog
        .getByText(/lies inside its source/)
        .first()
        .waitFor();
      expect(childrenOf(await readContext(targetPrefix, shelf)).size).toBe(0);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // Searched inside the collection instead, the copy is allowed.
      await page.goto(
        `/ui/views/${sourceViewId}/search?q=${hit}&contextUri=${encodeURIComponent(JSON.stringify(collection))}`,
      );
      await page.getByText('2 results').waitFor();
      await page.getByRole('button', { name: 'Copy to another view' }).click();
      await pointer.choose(dialog.getByLabel(/^Target view/).first(), targetViewName);
      await dialog.getByRole('textbox', { name: /^Target container/ }).fill(shelf);
      await dialog.getByRole('button', { name: 'Preview' }).click();
      await dialog.getByText(/Would copy 2 resources \(2 containers/).waitFor({ timeout: 30_000 });
      await expectAccessible(page, 'the dry run of a search’s hits');
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByText('APPLIED', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByText('QUERY', { exact: true }).waitFor();
      const report = page.getByRole('region', { name: 'Copy report' });
      await expect.poll(() => report.getByText('COPIED', { exact: true }).count()).toBe(2);
      // Each hit lands directly in the container chosen, without the collection around it.
      expect(childrenOf(await readContext(targetPrefix, shelf)).size).toBe(2);
    });
    await context.close();
  });
});

/** A container inside the target view's root (created through the target view). */
async function createTargetContainer(title: string): Promise<string> {
  const before = childrenOf(await readContext(targetPrefix, ''));
  const after = ok(
    await apiCall(
      'POST',
      `${targetPrefix}/children?contextUri=`,
      [{ subject: '', predicate: TITLE, object: `"${title}"@en` }],
      admin,
    ),
  ).RepositoryViewContext as Context;
  const fresh = [...childrenOf(after)].filter((iri) => !before.has(iri));
  if (fresh.length !== 1) throw new Error('expected one new container in the target view');
  return fresh[0]!;
}
