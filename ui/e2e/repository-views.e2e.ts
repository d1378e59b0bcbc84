import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  baseUrl,
  apiCall,
  DESKTOP,
  expectAccessible as expectAccessibleNow,
  newPage,
  PHONE,
  screenshot,
  signIn,
  tokenFor,
  unique,
  useBrowser,
  newCurator,
} from './fixtures';

/** axe once transitions (a dialog fading in, hover colours) have finished. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expectAccessibleNow(page, what);
}

/** The embedded repository's password, generated on first start into the data directory. */
function repositoryPassword(): string {
  return fs.readFileSync(path.join(inject('dataDir'), 'repository-password'), 'utf8').trim();
}

async function fillView(page: Page, name: string, root: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'Root URI' }).fill(root);
  await page.getByLabel('Username').fill('fedoraAdmin');
  await page.getByLabel('Password', { exact: true }).fill(repositoryPassword());
}

const steps = (page: Page) => page.getByRole('list', { name: 'Verification steps' });

describe('repository views', () => {
  const browser = useBrowser();

  it('an admin creates, verifies, edits and deletes a view pointing at the embedded repository', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await expectAccessible(page, 'the views list');

    await page.getByRole('link', { name: 'New repository view' }).click();
    await page.getByRole('heading', { level: 1, name: 'New repository view' }).waitFor();
    await expectAccessible(page, 'the new view form');

    const name = unique('Archive');
    const root = `${baseUrl()}/rest/`;
    await fillView(page, name, root);

    // A root that is no repository: a step fails with the service's message, the rest are not run.
    await page.getByRole('textbox', { name: 'Root URI' }).fill(`${baseUrl()}/not-a-repository/`);
    await page.getByRole('button', { name: 'Verify' }).click();
    await steps(page)
      .getByText(/Failed: /)
      .waitFor();
    expect(
      await steps(page)
        .getByText(/Failed: /)
        .textContent(),
    ).toMatch(/Failed: \S/);
    await expectAccessible(page, 'a failed verification');

    // The real root: three passing steps.
    await page.getByRole('textbox', { name: 'Root URI' }).fill(root);
    await page.getByText('The settings changed since these results: verify again.').waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Ping — Passed: Ping was successful!').waitFor();
    await steps(page)
      .getByText(/Content — Passed/)
      .waitFor();
    expect(
      await steps(page)
        .getByText(/Passed: /)
        .count(),
    ).toBe(3);
    await expectAccessible(page, 'a passed verification');

    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();
    await page.getByRole('link', { name, exact: true }).waitFor();

    // The same name again: the service's INVALID message lands on the Name field.
    await page.getByRole('link', { name: 'New repository view' }).click();
    await fillView(page, name, root);
    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByText(`with name of ${name} already exists`).waitFor();
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await expectAccessible(page, 'the form with a field message');
    await page.getByRole('link', { name: 'Cancel' }).click();

    await page.getByRole('link', { name, exact: true }).waitFor();
    await screenshot(page, 'views-list');

    // Edit: the password field starts empty (kept), the detected dialect is shown; rename.
    await page.getByRole('link', { name: `Edit ${name}` }).click();
    await page.getByRole('heading', { level: 1, name: `Edit repository view ${name}` }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await page.getByText('Leave empty to keep the stored password. It is never shown.').waitFor();
    await expectAccessible(page, 'the edit form');
    await screenshot(page, 'views-edit');
    // The stored password is used when the field is empty.
    await page.getByRole('button', { name: 'Verify' }).click();
    await steps(page)
      .getByText(/Content — Passed/)
      .waitFor();
    const renamed = unique('Renamed');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('link', { name: renamed, exact: true }).waitFor();
    expect(await page.getByRole('link', { name, exact: true }).count()).toBe(0);

    // Delete asks first, naming the view.
    await page.getByRole('button', { name: `Delete ${renamed}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${renamed}?` });
    await dialog.waitFor();
    await expectAccessible(page, 'the delete dialog');
    await dialog.getByRole('button', { name: 'Delete view' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: renamed, exact: true }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('works on a phone: the list and the form pass axe at 390×844', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await expectAccessible(page, 'the views list at 390×844');
    await page.getByRole('link', { name: 'New repository view' }).click();
    await page.getByRole('heading', { level: 1, name: 'New repository view' }).waitFor();
    await expectAccessible(page, 'the new view form at 390×844');
    await context.close();
  });
});

describe('repository views for a curator', () => {
  const browser = useBrowser();

  it('a curator sees only the views they curate, may edit them, and has no New or Delete', async () => {
    const admin = await tokenFor();
    const { id: userId, username, password } = await newCurator();
    const mine = unique('Curated');
    const other = unique('NotMine');
    for (const [name, curators] of [
      [mine, [{ id: userId }]],
      [other, []],
    ] as const)
      await apiCall(
        'POST',
        '/repository-view',
        {
          type: 'FEDORA',
          name,
          rootUri: `${baseUrl()}/rest/`,
          username: 'fedoraAdmin',
          password: repositoryPassword(),
          curators,
        },
        admin,
      );

    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, username, password);
    await page.getByRole('link', { name: mine, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: other, exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New repository view' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `Delete ${mine}` }).count()).toBe(0);
    await expectAccessible(page, "a curator's views list");

    await page.getByRole('link', { name: `Edit ${mine}` }).click();
    await page.getByRole('heading', { level: 1, name: `Edit repository view ${mine}` }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Curators' }).count()).toBe(0);
    await expectAccessible(page, "a curator's edit form");
    const renamed = unique('CuratedRenamed');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('link', { name: renamed, exact: true }).waitFor();
    await context.close();
  });
});
