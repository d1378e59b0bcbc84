import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { keyboard, pointer, type Actor } from './actors';
import {
  apiCall,
  curatorOf,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

/**
 * The walk-through, signed in as a curator of the view, on the embedded repository: sign in,
 * open the view, add a child, add / edit / delete metadata, upload with progress, check fixity, work
 * inside a transaction and commit, create and restore a version, and run a mapping job preview → apply
 * → undo.
 * Run with a pointer at 1280×800 and 390×844, and with the keyboard only at 1280×800.
 */
describe('the curation walk-through', () => {
  const browser = useBrowser();

  for (const [actor, viewport, label] of [
    [pointer, DESKTOP, 'with a pointer at 1280×800'],
    [keyboard, DESKTOP, 'with the keyboard only at 1280×800'],
    [pointer, PHONE, 'with a pointer at 390×844'],
  ] as const) {
    it(`works ${label}`, async () => {
      const { context, page } = await newPage(browser(), viewport);
      try {
        await walkThrough(page, actor, viewport === PHONE);
      } catch (error) {
        // What the screen showed when a step failed, for the person reading the failure.
        await page.screenshot({
          path: path.join(os.tmpdir(), `walk-through-${actor.name}-${viewport.width}.png`),
        });
        throw error;
      }
      await context.close();
    }, 240_000);
  }
});

async function walkThrough(page: Page, act: Actor, phone: boolean): Promise<void> {
  const title = unique('Walk-through record');
  const token = await tokenFor();
  const operatorName = await ensureTitleOperator(token);
  // A real curator of the view, not the administrator: the walk-through is what a curator does.
  const curator = await curatorOf('Embedded repository');

  // Sign in.
  await page.goto('/ui/');
  await act.fill(page.getByLabel('Username'), curator.username);
  await act.fill(page.getByLabel('Password', { exact: true }), curator.password);
  await act.press(page.getByRole('button', { name: 'Sign in' }));
  await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();

  // Open the embedded view at its root.
  await act.press(page.getByRole('link', { name: 'Embedded repository', exact: true }));
  await page.getByRole('heading', { level: 1, name: 'Root' }).waitFor();

  // Add a child, then open it.
  await act.press(page.getByRole('button', { name: 'Add child' }));
  const childDialog = page.getByRole('dialog');
  await act.fill(childDialog.getByRole('textbox').first(), title);
  await act.press(childDialog.getByRole('button', { name: /add|create|save/i }).last());
  await childDialog.waitFor({ state: 'hidden' });
  await act.press(page.getByRole('region', { name: 'Children' }).getByRole('link', { name: title }));
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await expectAccessible(page, `the new child (${act.name})`);

  // Add, edit and delete metadata.
  const metadata = page.getByRole('region', { name: 'Metadata' });
  await addMetadata(page, act, 'dcterms:description', 'First description');
  await metadata.getByText('First description').waitFor();
  await act.press(metadata.getByRole('button', { name: 'Edit dcterms:description First description' }));
  await act.fill(metadata.getByLabel('New value of dcterms:description'), 'Second description');
  await act.press(metadata.getByRole('button', { name: 'Save' }));
  await metadata.getByText('Second description').waitFor();
  await act.press(metadata.getByRole('button', { name: 'Delete dcterms:description Second description' }));
  await expectAccessible(page, `the delete confirmation (${act.name})`);
  await act.press(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  await expect.poll(() => metadata.getByText('Second description').count()).toBe(0);

  // Upload a file with progress, then check its fixity.
  const file = path.join(inject('dataDir'), '..', `${unique('upload')}.txt`);
  fs.writeFileSync(file, 'x'.repeat(256 * 1024));
  const chooser = page.waitForEvent('filechooser');
  await act.press(page.getByRole('button', { name: 'Upload file' }));
  await (await chooser).setFiles(file);
  await page
    .getByRole('progressbar', { name: 'Upload progress' })
    .waitFor({ state: 'attached' })
    .catch(() => undefined);
  const binaryLink = page
    .getByRole('region', { name: 'Children' })
    .getByRole('link', { name: path.basename(file) });
  await binaryLink.waitFor();
  await act.press(binaryLink);
  await act.press(page.getByRole('button', { name: 'Check fixity' }));
  await page
    .getByRole('dialog')
    .getByText(/SUCCESS|intact|matches/i)
    .first()
    .waitFor();
  await expectAccessible(page, `the fixity dialog (${act.name})`);
  await page.keyboard.press('Escape');
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();

  // A transaction: start, edit inside it, commit.
  await act.press(page.getByRole('button', { name: 'Start transaction' }));
  await page.getByRole('button', { name: 'Commit' }).waitFor();
  await addMetadata(page, act, 'dcterms:subject', 'Inside the transaction');
  await metadata.getByText('Inside the transaction').waitFor();
  await act.press(page.getByRole('button', { name: 'Commit' }));
  await page.getByRole('button', { name: 'Start transaction' }).waitFor();
  await metadata.getByText('Inside the transaction').waitFor();

  // Create a version, change the resource, restore the version.
  await act.press(page.getByRole('button', { name: 'Create version' }));
  const versionDialog = page.getByRole('dialog');
  await versionDialog
    .getByRole('button', { name: /create/i })
    .last()
    .waitFor();
  await act.press(versionDialog.getByRole('button', { name: /create/i }).last());
  const versions = page.getByRole('region', { name: 'Versions' });
  await expect.poll(() => versions.getByRole('button', { name: /restore/i }).count()).toBeGreaterThan(0);
  await addMetadata(page, act, 'dcterms:subject', 'After the version');
  await metadata.getByText('After the version').waitFor();
  await act.press(versions.getByRole('button', { name: /restore/i }).first());
  await act.press(page.getByRole('dialog').getByRole('button', { name: /restore/i }));
  await expect.poll(() => metadata.getByText('After the version').count()).toBe(0);

  // A mapping job over this resource: preview → apply → undo.
  await act.press(page.getByRole('link', { name: 'Start curation job' }));
  await page.getByRole('heading', { level: 1, name: 'New curation job' }).waitFor();
  await act.check(page.getByRole('radio', { name: 'This resource only' }));
  await act.choose(page.getByLabel('Operator to add', { exact: true }).first(), operatorName);
  await act.press(page.getByRole('button', { name: 'Add operator' }));
  await act.press(page.getByRole('button', { name: 'Start job' }));
  await page.getByText('PREVIEWED', { exact: true }).first().waitFor({ timeout: 60_000 });
  await page.getByText('Mapped by a job').first().waitFor();
  await expectAccessible(page, `the preview (${act.name})`);
  await act.press(page.getByRole('button', { name: 'Apply' }));
  await act.press(page.getByRole('dialog').getByRole('button', { name: 'Apply changes' }));
  await page.getByText('APPLIED', { exact: true }).first().waitFor({ timeout: 60_000 });
  await act.press(page.getByRole('button', { name: 'Undo' }));
  await act.press(page.getByRole('dialog').getByRole('button', { name: 'Undo changes' }));
  await page.getByText('UNDONE', { exact: true }).first().waitFor({ timeout: 60_000 });
  await expectAccessible(page, `the finished job (${act.name})`);

  // Sign out.
  // On a phone the navigation folds behind a button that opens it.
  if (phone) {
    await act.press(page.getByRole('button', { name: 'Open navigation' }));
    await page.getByRole('link', { name: 'Curation jobs' }).waitFor();
  }
  await act.press(page.getByRole('button', { name: 'Sign out' }));
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

/** Opens `Add metadata`, picks the property from the view's schemas, types the value, saves. */
async function addMetadata(page: Page, act: Actor, property: string, value: string): Promise<void> {
  await act.press(page.getByRole('button', { name: 'Add metadata' }));
  const dialog = page.getByRole('dialog', { name: 'Add metadata' });
  await dialog.waitFor();
  await act.choose(dialog.getByLabel('Property', { exact: true }).first(), property);
  await act.fill(dialog.getByLabel('Value', { exact: true }), value);
  await act.press(dialog.getByRole('button', { name: 'Save' }));
  await dialog.waitFor({ state: 'hidden' });
}

/** A constant operator that sets dcterms:subject, created through the API (operators are not the walk-through). */
async function ensureTitleOperator(token: string): Promise<string> {
  const name = unique('Walk-through operator');
  const answer = await apiCall(
    'POST',
    '/operators',
    { type: 'CONSTANT_OP', name, field: 'dcterms:subject', value: 'Mapped by a job' },
    token,
  );
  if (answer.meta.status !== 'SUCCESS') throw new Error(`cannot create the operator: ${answer.meta.message}`);
  return name;
}
