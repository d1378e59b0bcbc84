import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  expectAccessible as expectAccessibleNow,
  newCurator,
  newPage,
  PHONE,
  signIn,
  tokenFor,
  useBrowser,
} from './fixtures';

/** axe once transitions have finished: mid-fade colours are not the ones people read. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expectAccessibleNow(page, what);
}

/** The rows of the readiness table as the screen shows them: dependency and state. */
async function checkRows(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'Readiness checks' });
  await table.waitFor();
  const rows = await table.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) => (await row.locator('td').allTextContents()).map((text) => text.trim())),
  );
}

describe('service status (ADMIN, DECISIONS.md §17)', () => {
  const browser = useBrowser();

  it('an administrator opens it from the navigation: every dependency answering, binaries on local disk', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Service status' }).click();
    await page.getByRole('heading', { level: 1, name: 'Service status' }).waitFor();
    expect(await checkRows(page)).toEqual([
      ['Database', 'Answering'],
      ['Binary store', 'Answering'],
      ['Curation job queue', 'Answering'],
    ]);
    await page.getByRole('status').getByText('Ready: every dependency answers').waitFor();
    expect((await page.getByTestId('binary-store').textContent())?.trim()).toBe('Local disk');
    // What the screen shows is what the probe answers.
    const probe = await apiCall('GET', '/health/ready');
    expect(probe.meta.status).toBe('SUCCESS');
    await expectAccessible(page, 'the service status screen');
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Service status' }).waitFor();
    await context.close();
  });

  it('reads well on a phone', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await signIn(page);
    await page.goto('/ui/service-status');
    await page.getByRole('heading', { level: 1, name: 'Service status' }).waitFor();
    expect(await checkRows(page)).toHaveLength(3);
    await expectAccessible(page, 'the service status screen on a phone');
    await context.close();
  });

  it('a curator has no link to it and is refused at its address', async () => {
    const curator = await newCurator();
    await tokenFor(curator.username, curator.password);
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator.username, curator.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Repository views' }).waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Service status' }).count()).toBe(0);
    await page.goto('/ui/service-status');
    await page.getByText('The service status is shown to an administrator.').waitFor();
    expect(await page.getByRole('table', { name: 'Readiness checks' }).count()).toBe(0);
    await expectAccessible(page, 'the service status refused to a curator');
    await context.close();
  });
});
