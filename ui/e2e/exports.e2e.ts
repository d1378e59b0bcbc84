import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractTar } from '../../test/support/bagit/archives';
import { validateBag } from '../../test/support/bagit/validate-bag';
import { keyboard, pointer } from './actors';
import {
  apiCall,
  DESKTOP,
  embeddedViewSession,
  expectAccessible,
  newPage,
  PHONE,
  signIn,
  useBrowser,
} from './fixtures';
import fs from 'node:fs';

/*
 * Export packages in the workbench (DECISIONS.md §15, issue 31), signed in as a curator of the embedded
 * view: `Export as bag` on a container starts an EXPORT job, whose screen shows it COMPLETED and offers
 * `Download bag (tar)`; the downloaded tar holds a bag that validates. Axe at the desktop and phone sizes;
 * at the phone size driven by the keyboard alone.
 */

const TITLE = 'http://purl.org/dc/terms/title';
let token = '';
let viewId = 0;
let prefix = '';
let curator = { username: '', password: '' };
const word = `bag${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

interface Context {
  children: { triple: { object: string } | null }[];
}

/** Creates a container under `parent` titled `title` and answers its IRI. */
async function createContainer(parent: string, title: string): Promise<string> {
  const iris = (context: Context) =>
    new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));
  const read = async () =>
    ok(await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(parent)}`, undefined, token))
      .RepositoryViewContext as Context;
  const before = iris(await read());
  const after = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=${encodeURIComponent(parent)}`,
      [{ subject: '', predicate: TITLE, object: `"${title}"@en` }],
      token,
    ),
  ).RepositoryViewContext as Context;
  const fresh = [...iris(after)].filter((iri) => !before.has(iri));
  if (fresh.length !== 1) throw new Error(`expected one new child under ${parent}`);
  return fresh[0]!;
}

const browseUrl = (uri: string) =>
  `/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(uri))}`;

async function run(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), `${name}.png`) }).catch(() => undefined);
    throw error;
  }
}

describe('export packages', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, prefix, curator } = await embeddedViewSession());
  });

  // At the phone size with the keyboard alone, at the desktop size with the pointer.
  for (const [size, viewport, actor] of [
    ['desktop', DESKTOP, pointer],
    ['phone', PHONE, keyboard],
  ] as const)
    it(`a curator exports a container as a bag and downloads the tar (${size}, ${actor.name})`, async () => {
      const collection = await createContainer('', `Bag collection ${word} ${size}`);
      await createContainer(collection, `Box one ${word}`);
      await createContainer(collection, `Box two ${word}`);
      const { context, page } = await newPage(browser(), viewport);
      await run(page, `exports-${size}`, async () => {
        await signIn(page, curator.username, curator.password);
        await page.goto(browseUrl(collection));
        await page.getByRole('heading', { level: 1, name: `Bag collection ${word} ${size}` }).waitFor();
        expect(await page.getByRole('radio', { name: 'Everything below it' }).isChecked()).toBe(true);
        await expectAccessible(page, `the container with Export as bag (${size})`);
        await actor.press(page.getByRole('button', { name: 'Export as bag' }));

        await page.getByRole('heading', { level: 1, name: /^Curation job \d+$/ }).waitFor();
        await page.getByText('COMPLETED', { exact: true }).first().waitFor({ timeout: 30_000 });
        await page.getByText('EXPORT', { exact: true }).waitFor();
        await page.getByText(/3 resources exported; a bag of 3 files/).waitFor();
        await expectAccessible(page, `a COMPLETED EXPORT job (${size})`);

        const downloading = page.waitForEvent('download');
        await actor.press(page.getByRole('button', { name: 'Download bag (tar)' }));
        const download = await downloading;
        const name = download.suggestedFilename();
        expect(name).toMatch(/^bag-\d+\.tar$/);
        const into = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bag-e2e-'));
        await extractTar(fs.readFileSync(await download.path()), into);
        const validation = await validateBag(path.join(into, name.replace(/\.tar$/, '')));
        expect(validation.problems).toEqual([]);
        expect(validation.payload).toHaveLength(3);
        await page.getByRole('button', { name: 'Download bag (zip)' }).waitFor();
        fs.rmSync(into, { recursive: true, force: true });
      });
      await context.close();
    });
});
