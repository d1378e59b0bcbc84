import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../test/support/notifications/webhook-receiver.js';
import { keyboard, tabTo } from './actors';
import {
  DESKTOP,
  expectAccessible as expectAccessibleNow,
  newPage,
  PHONE,
  signIn,
  unique,
  useBrowser,
} from './fixtures';

/** axe once transitions (a dialog fading in) have finished: mid-fade colours are not the ones people read. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expectAccessibleNow(page, what);
}

async function openNotifications(page: Page): Promise<void> {
  await signIn(page);
  await page.goto('/ui/notifications');
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
}

describe('notifications screen (ADMIN)', () => {
  const browser = useBrowser();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver([204]);
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('creates a webhook, shows its secret once, sends a signed test and shows the delivery', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await openNotifications(page);
    await expectAccessible(page, 'the notifications screen');
    const name = unique('Hook');
    await page.getByRole('button', { name: 'Add target' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add notification target' });
    await dialog.waitFor();
    await expectAccessible(page, 'the add target dialog');
    await dialog.getByLabel('Name').fill(name);
    // An address with credentials is refused by the service, at its field.
    await dialog.getByLabel('URL').fill('http://user:pass@127.0.0.1/hook');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText("A notification target's url must not contain credentials").waitFor();
    await expectAccessible(page, 'the add target dialog with a field message');
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const secret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await expectAccessible(page, 'the secret shown once');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });
    // Never shown again, not even after a reload.
    await page.reload();
    await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    expect(await page.content()).not.toContain(secret);

    const before = receiver.received.length;
    await page.getByRole('button', { name: `Send a test notice to ${name}` }).click();
    const panel = page.getByRole('region', { name: `Deliveries of ${name}` });
    await panel.getByRole('cell', { name: 'HTTP 204' }).waitFor();
    await panel.getByText('DELIVERED', { exact: true }).first().waitFor();
    expect(receiver.received).toHaveLength(before + 1);
    const sent = receiver.received[before]!;
    expect(sent.headers['x-scriptorium-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(sent.body).digest('hex')}`,
    );
    await expectAccessible(page, 'the deliveries panel');
    await context.close();
  });

  it('works at phone size', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await openNotifications(page);
    await expectAccessible(page, 'the notifications screen on a phone');
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByRole('dialog', { name: 'Add notification target' }).waitFor();
    await expectAccessible(page, 'the add target dialog on a phone');
    await context.close();
  });

  it('creates an e-mail target with the keyboard alone', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await openNotifications(page);
    const name = unique('Mail');
    await keyboard.press(page.getByRole('button', { name: 'Add target' }));
    const dialog = page.getByRole('dialog', { name: 'Add notification target' });
    await dialog.waitFor();
    await keyboard.fill(dialog.getByLabel('Name'), name);
    await tabTo(page, dialog.getByLabel('Kind'));
    await page.keyboard.press('ArrowDown');
    await keyboard.fill(dialog.getByLabel('E-mail address'), 'curators@example.org');
    await keyboard.check(dialog.getByRole('checkbox', { name: /AUDIT_CHAIN_BROKEN/ }));
    await keyboard.press(dialog.getByRole('button', { name: 'Save' }));
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('cell', { name: 'curators@example.org' }).waitFor();
    await row.getByText(/AUDIT_CHAIN_BROKEN/).waitFor();
    await context.close();
  });
});
