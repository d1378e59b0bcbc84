import { describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, newPage, PHONE, screenshot, signIn, useBrowser } from './fixtures';

describe('sign in and sign out', () => {
  const browser = useBrowser();

  it('signs in with the printed password, keeps the session across a reload, and signs out', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await page.goto('/');
    // / redirects to the workbench, which asks for a session first.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/sign-in');
    await expectAccessible(page, 'the sign-in screen');
    await screenshot(page, 'sign-in');

    await signIn(page);
    await expectAccessible(page, 'the views screen');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto('/ui/views');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('shows the service message for a wrong password, next to the form', async () => {
    const { context, page } = await newPage(browser(), PHONE);
    await page.goto('/ui/sign-in');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password|credentials/i);
    await expectAccessible(page, 'the sign-in error at 390×844');
    await context.close();
  });

  it('says the session ended when the token is revoked elsewhere, and signs in again', async () => {
    const { context, page } = await newPage(browser(), DESKTOP);
    await signIn(page);
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('scriptorium.session') ?? '{}') as { token: string }).token,
    );
    await fetch(`${new URL(page.url()).origin}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    await page.reload();
    await page.getByText('Your session has ended').waitFor();
    await context.close();
  });
});
