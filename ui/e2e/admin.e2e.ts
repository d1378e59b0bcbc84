import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectAccessible as expectAccessibleNow,
  newPage,
  PHONE,
  screenshot,
  signIn,
  unique,
  useBrowser,
} from './fixtures';

/**
 * axe once transitions (a dialog fading in, a link's active background) have finished: mid-fade
 * colours are not the ones people read.
 */
async function expectAccessible(page: Page, what: string): Promise<void> {
  // The pointer rests on the header, not on the link or button it last pressed (hover colours).
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expectAccessibleNow(page, what);
}

/** Opens an admin screen through the main navigation and waits for its heading. */
async function open(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** Asks to delete `name` through its row's button and confirms in the dialog. */
async function confirmDelete(page: Page, name: string, confirm: string): Promise<void> {
  await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
  await dialog.waitFor();
  await expectAccessible(page, `the delete ${name} dialog`);
  await dialog.getByRole('button', { name: confirm }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('admin screens', () => {
  const browser = useBrowser();

  it('schemas: finds properties, picks them, edits and deletes, with a field message from the service', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await open(page, 'Schemas');
    await expectAccessible(page, 'the schemas screen');

    const name = unique('Terms');
    const abbreviation = `d${Math.random().toString(36).slice(2, 8)}`;
    await page.getByRole('button', { name: 'Add schema' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add schema' });
    await dialog.waitFor();
    await expectAccessible(page, 'the add schema dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Abbreviation').fill('1bad');
    await dialog.getByLabel('Namespace').fill('http://purl.org/dc/terms/');
    await dialog.getByRole('button', { name: 'Find properties' }).click();
    await dialog.getByRole('checkbox', { name: 'Title', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'Creator', exact: true }).check();
    await expectAccessible(page, 'the add schema dialog with found properties');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/An abbreviation must start with a letter/).waitFor();
    await expectAccessible(page, 'the add schema dialog with a field message');

    await dialog.getByLabel('Abbreviation').fill(abbreviation);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await screenshot(page, 'admin-schemas');

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await edit.getByRole('checkbox', { name: 'Creator', exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();

    await confirmDelete(page, name, 'Delete schema');
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('internal metadata: adds, edits and deletes, with a field message from the service', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await open(page, 'Internal metadata');
    await expectAccessible(page, 'the internal metadata screen');

    const field = unique('field');
    await page.getByRole('button', { name: 'Add internal metadata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add internal metadata' });
    await dialog.getByLabel('Label', { exact: true }).fill('x');
    await dialog.getByLabel('Field', { exact: true }).fill(field);
    await dialog.getByLabel('Required').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A internal metadatum gloss must be at least 2 characters').waitFor();
    await expectAccessible(page, 'the add internal metadata dialog with a field message');
    await dialog.getByLabel('Label', { exact: true }).fill(`Label ${field}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: new RegExp(field) });
    await row.getByText('Required').waitFor();

    await page.getByRole('button', { name: `Edit ${field}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit internal metadata' });
    await edit.getByLabel('Label', { exact: true }).fill(`Renamed ${field}`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: `Renamed ${field}` }).waitFor();

    await confirmDelete(page, field, 'Delete');
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('operators: adds by type, edits, tries them in order with a trace, deletes', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await open(page, 'Operators');
    await expectAccessible(page, 'the operators screen');

    const constant = unique('Constant');
    const regex = unique('Regex');
    await page.getByRole('button', { name: 'Add operator' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add operator' });
    await dialog.waitFor();
    await expectAccessible(page, 'the add operator dialog');
    await dialog.getByLabel('Type').selectOption('CONSTANT_OP');
    await dialog.getByLabel('Name', { exact: true }).fill('x');
    await dialog.getByLabel('Field', { exact: true }).fill('title');
    await dialog.getByLabel('Value', { exact: true }).fill('Fixed title');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A operator name must be at least 2 characters').waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill(constant);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Add operator' }).click();
    dialog = page.getByRole('dialog', { name: 'Add operator' });
    await dialog.getByLabel('Type').selectOption('REGEX_REPLACE_OP');
    await dialog.getByLabel('Name', { exact: true }).fill(regex);
    await dialog.getByLabel('Field', { exact: true }).fill('title');
    // A bare name works in Try it but matches nothing in a curation job: the form says so, and not for a prefixed one.
    const bare = dialog.getByRole('status').getByText('Matches nothing in a curation job');
    await bare.waitFor();
    await dialog.getByLabel('Field', { exact: true }).fill('dcterms:title');
    await bare.waitFor({ state: 'detached' });
    await dialog.getByLabel('Field', { exact: true }).fill('title');
    await dialog.getByLabel('Regular expression').fill('^\\w+');
    await dialog.getByLabel('Replacement').fill('Set');
    await expectAccessible(page, 'the add operator dialog for a regex replacement');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: `Edit ${constant}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${constant}` });
    await edit.getByLabel('Value', { exact: true }).fill('Changed title');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: new RegExp(constant) })
      .getByText('Changed title')
      .waitFor();

    const tryIt = page.getByRole('region', { name: 'Try it' });
    await tryIt.getByRole('checkbox', { name: constant }).check();
    await tryIt.getByRole('checkbox', { name: regex }).check();
    await tryIt.getByText(`In this order: ${constant} → ${regex}`).waitFor();
    await tryIt.getByRole('button', { name: 'Apply' }).click();
    const trace = tryIt.getByRole('table');
    await trace
      .getByRole('row', { name: new RegExp(`${constant}.*A sample title.*Changed title`) })
      .waitFor();
    await trace.getByRole('row', { name: new RegExp(`${regex}.*Changed title.*Set title`) }).waitFor();
    await tryIt.getByText(/"Set title"/).waitFor();
    await expectAccessible(page, 'the operators screen with a trace');
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await screenshot(page, 'admin-operators');

    await confirmDelete(page, constant, 'Delete operator');
    await confirmDelete(page, regex, 'Delete operator');
    await page.getByRole('button', { name: `Delete ${regex}` }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('users: adds, changes the role, shows the refusal to delete yourself, deletes (at 390×844)', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await open(page, 'Users');
    await expectAccessible(page, 'the users screen at 390×844');

    const username = unique('ann');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await dialog.getByLabel('First name').fill('Ann');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('A password must be at least 8 characters').waitFor();
    await expectAccessible(page, 'the add user dialog with a field message');
    await dialog.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: new RegExp(username) });
    await row.getByText('User', { exact: true }).waitFor();

    await page.getByRole('button', { name: `Edit ${username}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${username}` });
    await edit.getByLabel('Role').selectOption('ROLE_CURATOR');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByText('Curator', { exact: true }).waitFor();
    await page.setViewportSize(DESKTOP);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await screenshot(page, 'admin-users');
    await page.setViewportSize(PHONE);

    await confirmDelete(page, 'admin', 'Delete user');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Users cannot delete themselves/);
    await expectAccessible(page, 'the users screen with a refusal');

    await confirmDelete(page, username, 'Delete user');
    await row.waitFor({ state: 'detached' });
    await context.close();
  });
});
