import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  DESKTOP,
  expectAccessible as expectAccessibleNow,
  newPage,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './fixtures';

const PASSWORD = 'roles-e2e-password';
const ADMIN_LINKS = ['Internal metadata', 'Operators', 'Users', 'Activity', 'Service status'];

/** axe once transitions have finished. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  // The pointer rests on the header, not on the link or button it last pressed (hover colours).
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expectAccessibleNow(page, what);
}

async function createUser(token: string, username: string, role: string): Promise<number> {
  const answer = await apiCall('POST', '/user/create', { username, password: PASSWORD, role }, token);
  const id = (answer.payload.User as { id?: number } | undefined)?.id;
  if (id === undefined) throw new Error(`cannot create ${username}: ${answer.meta.message}`);
  return id;
}

async function createView(token: string, name: string, curators: number[]): Promise<void> {
  const answer = await apiCall(
    'POST',
    '/repository-view',
    { type: 'LDP', name, rootUri: `http://127.0.0.1:9/${name}/`, curators: curators.map((id) => ({ id })) },
    token,
  );
  if (answer.meta.status !== 'SUCCESS') throw new Error(`cannot create ${name}: ${answer.meta.message}`);
}

async function navLinks(page: Page): Promise<string[]> {
  return (await page.getByRole('navigation').getByRole('link').allTextContents()).map((text) => text.trim());
}

describe('what each role sees', () => {
  const browser = useBrowser();
  const curator = unique('curator');
  const user = unique('reader');
  const curated = unique('Curated view');
  const other = unique('Other view');

  beforeAll(async () => {
    const admin = await tokenFor();
    const curatorId = await createUser(admin, curator, 'ROLE_CURATOR');
    await createUser(admin, user, 'ROLE_USER');
    await createView(admin, curated, [curatorId]);
    await createView(admin, other, []);
  });

  it('a curator sees only the view they curate, schemas read only, and no admin links', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page, curator, PASSWORD);
    await page.getByRole('link', { name: curated, exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: other }).count()).toBe(0);
    const links = await navLinks(page);
    for (const link of ADMIN_LINKS) expect(links).not.toContain(link);
    expect(links).toContain('Schemas');
    await expectAccessible(page, "the curator's views");

    await page.getByRole('navigation').getByRole('link', { name: 'Schemas' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schemas' }).waitFor();
    await page.getByText('Read only: an administrator edits schemas.').waitFor();
    expect(await page.getByRole('button', { name: 'Add schema' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    await expectAccessible(page, "the curator's schemas");

    await page.goto('/ui/operators');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Not allowed/);
    await context.close();
  });

  it('a plain user sees no admin links, and /ui/users says not allowed', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    // A plain user may not list views: sign in through the form; the landing screen says so.
    await page.goto('/ui/');
    await page.getByLabel('Username').fill(user);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No repository views for your account yet').waitFor();
    await expectAccessible(page, "a plain user's landing screen");

    await page.goto('/ui/users');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/Not allowed/);
    const links = await navLinks(page);
    expect(links).toContain('Repository views');
    for (const link of [...ADMIN_LINKS, 'Schemas']) expect(links).not.toContain(link);
    await expectAccessible(page, 'the not allowed screen');
    await context.close();
  });
});
