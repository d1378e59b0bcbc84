import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyboard } from './actors';
import {
  apiCall,
  DESKTOP,
  embeddedViewSession,
  expectAccessible,
  newPage,
  screenshot,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

const TITLE = 'http://purl.org/dc/terms/title';

interface Context {
  name: string | null;
  children: { triple: { object: string } | null }[];
}

let token = '';
let viewId = 0;
let prefix = '';
let curator = { username: '', password: '' };

function ok(answer: Awaited<ReturnType<typeof apiCall>>): Record<string, unknown> {
  if (answer.meta.status !== 'SUCCESS') throw new Error(`set-up failed: ${answer.meta.message}`);
  return answer.payload;
}

const childIris = (context: Context) =>
  context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));

async function readContext(uri: string): Promise<Context> {
  return ok(await apiCall('GET', `${prefix}?contextUri=${encodeURIComponent(uri)}`, undefined, token))
    .RepositoryViewContext as Context;
}

/** A container under the root titled `title` (a plain literal), made by the admin; answers its IRI. */
async function createContainer(title: string): Promise<string> {
  const before = new Set(childIris(await readContext('')));
  const context = ok(
    await apiCall(
      'POST',
      `${prefix}/children?contextUri=`,
      [{ predicate: TITLE, object: `"${title}"` }],
      token,
    ),
  ).RepositoryViewContext as Context;
  for (const iri of childIris(context).filter((child) => !before.has(child)))
    if ((await readContext(iri)).name === title) return iri;
  throw new Error(`no new container titled ${title}`);
}

const browseUrl = (uri: string) =>
  `/ui/views/${viewId}/browse?uri=${encodeURIComponent(JSON.stringify(uri))}`;

/** Opens the resource as the curator and waits for its heading. */
async function openAsCurator(page: Page, uri: string, name: string): Promise<void> {
  await signIn(page, curator.username, curator.password);
  await page.goto(browseUrl(uri));
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** Edits dcterms:title from `from` to `to` in the Metadata region, as a curator does. */
async function editTitle(page: Page, from: string, to: string): Promise<void> {
  const metadata = page.getByRole('region', { name: 'Metadata' });
  await metadata.getByRole('button', { name: `Edit dcterms:title ${from}` }).click();
  await metadata.getByLabel('New value of dcterms:title').fill(to);
  await metadata.getByRole('button', { name: 'Save' }).click();
  await metadata.getByRole('button', { name: `Edit dcterms:title ${to}` }).waitFor();
}

/** The History region's entries of one kind, newest first ("Metadata changed by <user>"). */
const entries = (page: Page, label: string): Locator =>
  page
    .getByRole('region', { name: 'History' })
    .getByRole('listitem', { name: `${label} by ${curator.username}`, exact: true });

/** Waits for a dialog's opening transitions to end (axe would see half-faded colours). */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await dialog.evaluate(async () => {
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

describe('History, Revert this change and Activity', () => {
  const browser = useBrowser();

  beforeAll(async () => {
    ({ token, viewId, prefix, curator } = await embeddedViewSession());
  });

  it('shows a curator’s edit in History with its diff and name, and reverts it as a new change', async () => {
    const original = unique('Original');
    const edited = unique('Edited');
    const uri = await createContainer(original);
    const { context, page } = await newPage(browser(), DESKTOP);
    await openAsCurator(page, uri, original);
    await editTitle(page, original, edited);

    const change = entries(page, 'Metadata changed').first();
    await change.waitFor();
    // The diff: the old title marked removed, the new one added, under the view's prefixed name.
    const removed = change.getByRole('listitem').filter({ hasText: 'Removed:' });
    const added = change.getByRole('listitem').filter({ hasText: 'Added:' });
    await expect(removed.textContent()).resolves.toContain(`dcterms:title${original}`);
    await expect(added.textContent()).resolves.toContain(`dcterms:title${edited}`);
    expect(await removed.evaluate((line) => getComputedStyle(line).color)).not.toBe(
      await added.evaluate((line) => getComputedStyle(line).color),
    );
    // Who and when: the curator's name, the local time with the exact ISO time as its title.
    await change.getByText(`by ${curator.username}`).waitFor();
    const iso = await change.getByTitle(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/).getAttribute('title');
    expect(Date.now() - Date.parse(iso ?? '')).toBeLessThan(10 * 60_000);
    await expectAccessible(page, 'a resource with its History');

    await change.getByRole('button', { name: 'Revert this change' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
    await settled(dialog);
    await expectAccessible(page, 'the revert dialog');
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();

    // The old title is back, and the revert is itself in the history (newest first), by the curator.
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await metadata.getByRole('button', { name: `Edit dcterms:title ${original}` }).waitFor();
    const revert = entries(page, 'Change reverted').first();
    await revert.waitFor();
    await expect(revert.getByRole('listitem').filter({ hasText: 'Added:' }).textContent()).resolves.toContain(
      original,
    );
    const all = page.getByRole('region', { name: 'History' }).getByRole('list', {
      name: 'Changes to this resource, newest first',
    });
    await expect(all.getByRole('listitem', { name: /by / }).first().getAttribute('aria-label')).resolves.toBe(
      `Change reverted by ${curator.username}`,
    );
    await page
      .getByRole('heading', { level: 2, name: 'History' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'history');
    await context.close();
  });

  it('refuses to revert a change the resource has moved on from, beside the entry', async () => {
    const first = unique('First');
    const second = unique('Second');
    const third = unique('Third');
    const uri = await createContainer(first);
    const { context, page } = await newPage(browser(), DESKTOP);
    await openAsCurator(page, uri, first);
    await editTitle(page, first, second);
    await editTitle(page, second, third);

    const changes = entries(page, 'Metadata changed');
    await expect.poll(() => changes.count()).toBe(2);
    // Newest first: the older change (first → second) is the second entry.
    const older = changes.nth(1);
    await expect(older.getByRole('listitem').filter({ hasText: 'Added:' }).textContent()).resolves.toContain(
      second,
    );
    await older.getByRole('button', { name: 'Revert this change' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();
    const refusal = older.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/cannot be reverted/i);
    await expect(refusal.textContent()).resolves.toMatch(/changed/i);
    // Nothing changed: the title is still the newest, and no revert was recorded.
    await page
      .getByRole('region', { name: 'Metadata' })
      .getByRole('button', { name: `Edit dcterms:title ${third}` })
      .waitFor();
    expect(await entries(page, 'Change reverted').count()).toBe(0);
    await expectAccessible(page, 'a refused revert');
    await context.close();
  });

  it('reverts with the keyboard alone: Tab to the button, Space, Tab to Revert in the dialog', async () => {
    const before = unique('Keyed');
    const after = unique('Rekeyed');
    const uri = await createContainer(before);
    const { context, page } = await newPage(browser(), DESKTOP);
    await openAsCurator(page, uri, before);
    await editTitle(page, before, after);

    const change = entries(page, 'Metadata changed').first();
    await keyboard.press(change.getByRole('button', { name: 'Revert this change' }));
    const dialog = page.getByRole('dialog', { name: 'Revert this change?' });
    await settled(dialog);
    await keyboard.press(dialog.getByRole('button', { name: 'Revert', exact: true }));
    await page
      .getByRole('region', { name: 'Metadata' })
      .getByRole('button', { name: `Edit dcterms:title ${before}` })
      .waitFor();
    await entries(page, 'Change reverted').first().waitFor();
    await context.close();
  });

  it('names who created each version', async () => {
    const title = unique('Versioned');
    const uri = await createContainer(title);
    const { context, page } = await newPage(browser(), DESKTOP);
    await openAsCurator(page, uri, title);
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByRole('button', { name: 'Create version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create version' });
    await dialog.getByLabel('Version name').fill('first-cut');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await versions
      .getByRole('row', { name: /first-cut/ })
      .getByText(`created by ${curator.username}`)
      .waitFor();
    await entries(page, 'Version created').first().waitFor();
    // The curator has no Activity screen: that is the administrator's.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).count(),
    ).resolves.toBe(0);
    await context.close();
  });

  it('shows the administrator a curator’s events in Activity, filtered by user, and refuses a bad date', async () => {
    const title = unique('Watched');
    const uri = await createContainer(title);
    // A change the curator makes through the API, beside the ones made on the screens.
    const done = await apiCall(
      'PUT',
      `${prefix}/metadata?contextUri=${encodeURIComponent(uri)}&value=${encodeURIComponent(`"${title}-changed"`)}`,
      { subject: uri, predicate: TITLE, object: `"${title}"` },
      await tokenFor(curator.username, curator.password),
    );
    expect(done.meta.status, done.meta.message).toBe('SUCCESS');

    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('link', { name: `Activity of ${curator.username}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await expect(page.getByRole('combobox', { name: 'User' }).inputValue()).resolves.toBe(curator.username);
    const table = page.getByRole('table', { name: 'Audit events, newest first' });
    const row = table.getByRole('row').filter({ hasText: uri });
    await row.first().waitFor();
    await expect(row.first().textContent()).resolves.toContain('Metadata changed');
    // Every row is the curator's.
    const rows = table.getByRole('row');
    const users: string[] = [];
    for (let i = 1; i < (await rows.count()); i++)
      users.push((await rows.nth(i).getByRole('cell').nth(1).textContent()) ?? '');
    expect(users.length).toBeGreaterThan(0);
    expect(new Set(users)).toEqual(new Set([curator.username]));
    await expectAccessible(page, 'the Activity screen');
    await screenshot(page, 'activity');

    // The action filter narrows it further; the resource links to its page.
    await page.getByLabel('Action', { exact: true }).selectOption('version.create');
    await page.getByRole('button', { name: 'Show activity' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('version.create');
    await table
      .getByRole('cell', { name: 'Version created' })
      .first()
      .or(page.getByText('No events match these filters.'))
      .waitFor();
    await expect(table.getByRole('cell', { name: 'Metadata changed' }).count()).resolves.toBe(0);

    // A date that is no date: the service's message, shown.
    await page.goto(
      `/ui/activity?username=${encodeURIComponent(JSON.stringify(curator.username))}&from=yesterday`,
    );
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/from must be an ISO 8601 date/);

    // From a view: the views list's Activity link filters by that view.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Repository views' })
      .click();
    await page.getByRole('link', { name: 'Activity of Embedded repository' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await expect(page.getByLabel('Repository view').inputValue()).resolves.toBe(String(viewId));
    await table.getByRole('row').nth(1).waitFor();
    await context.close();
  });
});
