import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
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
  type: string;
}

interface ContextAnswer {
  name: string | null;
  children: { triple: { object: string } | null }[];
}

let token = '';
let view: View;

const base = () => `/repository-view-context/${view.type}/${view.id}`;
const q = (uri: string | undefined) => `?contextUri=${encodeURIComponent(uri ?? '')}`;

async function readContext(uri?: string): Promise<ContextAnswer> {
  const answer = await apiCall('GET', `${base()}${q(uri)}`, undefined, token);
  expect(answer.meta.status, answer.meta.message).toBe('SUCCESS');
  return answer.payload.RepositoryViewContext as ContextAnswer;
}

const childrenOf = (context: ContextAnswer) =>
  new Set(context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object])));

/** A titled container under the root, through the API; answers its IRI. */
async function createContainer(title: string): Promise<string> {
  const before = childrenOf(await readContext());
  const answer = await apiCall(
    'POST',
    `${base()}/children${q(undefined)}`,
    [{ subject: '', predicate: DCTERMS_TITLE, object: JSON.stringify(title) }],
    token,
  );
  expect(answer.meta.status, answer.meta.message).toBe('SUCCESS');
  const fresh = [...childrenOf(answer.payload.RepositoryViewContext as ContextAnswer)].filter(
    (iri) => !before.has(iri),
  );
  for (const iri of fresh) if ((await readContext(iri)).name === title) return iri;
  throw new Error(`the new container ${title} was not found`);
}

/** Replaces the resource's dcterms:title through SPARQL Update (with `?token=` inside a transaction). */
async function retitle(contextUri: string, title: string): Promise<void> {
  const update =
    `DELETE { <> <${DCTERMS_TITLE}> ?t } INSERT { <> <${DCTERMS_TITLE}> ${JSON.stringify(title)} } ` +
    `WHERE { OPTIONAL { <> <${DCTERMS_TITLE}> ?t } }`;
  const answer = await apiCall('POST', `${base()}/query${q(contextUri)}`, update, token);
  expect(answer.meta.status, answer.meta.message).toBe('SUCCESS');
}

/** Uploads `content` as a new binary under `parent` through the API; answers the binary's IRI. */
async function uploadThroughApi(parent: string, filename: string, content: Buffer): Promise<string> {
  const before = childrenOf(await readContext(parent));
  const form = new FormData();
  form.append('contextUri', parent);
  form.append('file', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), filename);
  const response = await fetch(`${inject('baseUrl')}${base()}/resource`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const answer = (await response.json()) as { meta: { status: string }; payload: Record<string, unknown> };
  expect(answer.meta.status).toBe('SUCCESS');
  const fresh = [...childrenOf(answer.payload.RepositoryViewContext as ContextAnswer)].filter(
    (iri) => !before.has(iri),
  );
  if (fresh[0] === undefined) throw new Error(`the upload of ${filename} was not listed`);
  return fresh[0];
}

/** The stored files (under the data directory) whose bytes are `content`. */
function storedCopiesOf(content: Buffer): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        entry.isFile() &&
        fs.statSync(full).size === content.length &&
        fs.readFileSync(full).equals(content)
      )
        found.push(full);
    }
  };
  walk(inject('dataDir'));
  return found;
}

const browseUrl = (uri: string, tx?: string) => {
  const search = new URLSearchParams({ uri: JSON.stringify(uri) });
  if (tx !== undefined) search.set('tx', JSON.stringify(tx));
  return `/ui/views/${view.id}/browse?${search.toString()}`;
};

/** Waits for a dialog's opening transitions to end (axe would see half-faded colours). */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await dialog.evaluate(async () => {
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

const txOf = (page: Page): string | undefined => {
  const raw = new URL(page.url()).searchParams.get('tx');
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
};

describe('resource tools: binaries, versions, transactions', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    token = await tokenFor();
    const views = (await apiCall('GET', '/repository-view', undefined, token)).payload.LinkedList as View[];
    const found = views.find((candidate) => candidate.name === 'Embedded repository') ?? views[0];
    if (found === undefined) throw new Error('no repository view to work in');
    view = found;
  });

  it('uploads a file with a progress bar, lists the new binary, and checks its fixity', async () => {
    const title = unique('Uploads');
    const folder = await createContainer(title);
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.goto(browseUrl(folder));
    await heading(page, title).waitFor();

    // Slow the upload down so the progress bar is seen (about 2 s for 256 KiB).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 128 * 1024,
    });
    const filename = `${unique('scan')}.txt`;
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload file' }).click();
    await (
      await chooser
    ).setFiles({ name: filename, mimeType: 'text/plain', buffer: Buffer.alloc(256 * 1024, 'a') });
    const progress = page.getByRole('progressbar', { name: 'Upload progress' });
    await progress.waitFor();
    await page.getByText(/^\d{1,3}%$/).waitFor();
    await page.getByRole('button', { name: 'Cancel upload' }).waitFor();
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.getByText(`${filename} was uploaded.`).waitFor();
    const children = page.getByRole('list', { name: 'Children of this resource' });
    await children.getByRole('link', { name: filename }).click();
    await heading(page, filename).waitFor();
    await expectAccessible(page, 'a binary with its tools');

    await page.getByRole('button', { name: 'Download' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe(filename);

    await page.getByRole('button', { name: 'Check fixity' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fixity check' });
    await dialog.getByText(/^SUCCESS: the stored bytes match/).waitFor();
    await dialog.getByText(`${(256 * 1024).toLocaleString('en-US')} bytes`).waitFor();
    await expect(dialog.getByText(/^urn:sha/).textContent()).resolves.toMatch(/^urn:sha-(512|256|1):/);
    await settled(dialog);
    await expectAccessible(page, 'the fixity dialog');
    await screenshot(page, 'tools-fixity');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('says BAD_CHECKSUM in words when the stored bytes changed', async () => {
    const folder = await createContainer(unique('Damaged'));
    const filename = `${unique('damaged')}.txt`;
    const content = Buffer.from(`${unique('unique bytes')}\n`.repeat(64));
    const binary = await uploadThroughApi(folder, filename, content);
    const copies = storedCopiesOf(content);
    expect(copies.length).toBeGreaterThan(0);
    const damaged = Buffer.from(content);
    damaged[0] = damaged[0] === 0x41 ? 0x42 : 0x41;
    for (const copy of copies) fs.writeFileSync(copy, damaged);

    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await page.goto(browseUrl(binary));
    await heading(page, filename).waitFor();
    await page.getByRole('button', { name: 'Check fixity' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fixity check' });
    await dialog.getByText(/^BAD_CHECKSUM: the stored bytes no longer match/).waitFor();
    await dialog.getByText('Damaged').waitFor();
    await settled(dialog);
    await expectAccessible(page, 'the fixity dialog, damaged, at 390×844');
    await context.close();
  });

  it('cancels an upload and says so', async () => {
    const title = unique('Cancelled');
    const folder = await createContainer(title);
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await page.goto(browseUrl(folder));
    await heading(page, title).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 32 * 1024,
    });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload file' }).click();
    await (
      await chooser
    ).setFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(512 * 1024) });
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await expectAccessible(page, 'an upload in progress at 390×844');
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await page.getByText('The upload was cancelled.').waitFor();
    await context.close();
  });

  it('creates a version, restores it (the old title returns) and deletes it', async () => {
    const title = unique('Versioned');
    const uri = await createContainer(title);
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.goto(browseUrl(uri));
    await heading(page, title).waitFor();
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByText('No versions yet.').waitFor();

    const label = unique('before');
    await versions.getByRole('button', { name: 'Create version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create version' });
    await dialog.getByLabel('Version name').fill(label);
    await settled(dialog);
    await expectAccessible(page, 'the create-version dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const restoreButton = versions.getByRole('button', { name: new RegExp(`^Restore .*${label}`) });
    await restoreButton.waitFor();

    const changed = `${title} changed`;
    await retitle(uri, changed);
    await page.reload();
    await heading(page, changed).waitFor();

    await restoreButton.click();
    const confirmRestore = page.getByRole('dialog', { name: /^Restore / });
    await settled(confirmRestore);
    await expectAccessible(page, 'the restore confirmation');
    await confirmRestore.getByRole('button', { name: 'Restore' }).click();
    await heading(page, title).waitFor();

    await versions.getByRole('button', { name: new RegExp(`^Delete .*${label}`) }).click();
    const confirmDelete = page.getByRole('dialog', { name: /^Delete / });
    await settled(confirmDelete);
    await expectAccessible(page, 'the delete-version confirmation');
    await confirmDelete.getByRole('button', { name: 'Delete version' }).click();
    await confirmDelete.waitFor({ state: 'detached' });
    await expect
      .poll(() => versions.getByRole('button', { name: new RegExp(`^Delete .*${label}`) }).count())
      .toBe(0);
    await context.close();
  });

  it('starts a transaction with a countdown, commits an edit made inside it, and rolls another back', async () => {
    const title = unique('Transacted');
    const uri = await createContainer(title);
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.goto(browseUrl(uri));
    await heading(page, title).waitFor();

    await page.getByRole('button', { name: 'Start transaction' }).click();
    const banner = page.getByRole('region', { name: 'Transaction' });
    await banner.getByText('Transaction active').waitFor();
    const timer = banner.getByRole('timer');
    await expect.poll(() => timer.textContent()).toMatch(/^\d{2}:\d{2}$/);
    const tx = txOf(page);
    expect(tx).toMatch(/^tx:/);
    await expectAccessible(page, 'a resource inside a transaction');
    await screenshot(page, 'tools-transaction');

    // An edit inside the transaction: seen with the token, not without it.
    const committed = `${title} committed`;
    await retitle(`${uri}?token=${tx ?? ''}`, committed);
    expect((await readContext(uri)).name).toBe(title);
    await page.goto(browseUrl(uri, tx));
    await heading(page, committed).waitFor();
    // A reload: the banner asks the service for the expiration again.
    await expect.poll(() => banner.getByRole('timer').textContent()).toMatch(/^\d{2}:\d{2}$/);
    await banner.getByRole('button', { name: 'Refresh' }).click();
    await banner.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('The transaction was committed: its changes are saved.').waitFor();
    await expect.poll(() => txOf(page)).toBeUndefined();
    await heading(page, committed).waitFor();
    expect((await readContext(uri)).name).toBe(committed);

    // Another transaction, rolled back: the edit is gone.
    await page.getByRole('button', { name: 'Start transaction' }).click();
    await banner.getByText('Transaction active').waitFor();
    const second = txOf(page);
    await retitle(`${uri}?token=${second ?? ''}`, `${title} discarded`);
    await page.reload();
    await heading(page, `${title} discarded`).waitFor();
    await banner.getByRole('button', { name: 'Roll back' }).click();
    const confirm = page.getByRole('dialog', { name: 'Roll back the transaction?' });
    await settled(confirm);
    await expectAccessible(page, 'the roll-back confirmation');
    await confirm.getByRole('button', { name: 'Roll back' }).click();
    await page.getByText('The transaction was rolled back: its changes were discarded.').waitFor();
    await heading(page, committed).waitFor();
    expect((await readContext(uri)).name).toBe(committed);
    await context.close();
  });
});
