import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';

/** Debian's Chromium (.ci/run installs it); Playwright's own browser download cannot work here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export const baseUrl = (): string => inject('baseUrl');
export const adminPassword = (): string => inject('adminPassword');

/**
 * One headless Chromium per test file, closed after it. The flags keep it off the network: this
 * machine refuses outside connections, and Chromium's background services would try many.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is not started yet');
    return browser;
  };
}

/** A fresh context (no storage) and page at a viewport; failing requests and console errors are kept. */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the form, as a person would, and waits for the views screen. */
export async function signIn(page: Page, username = 'admin', password = adminPassword()): Promise<void> {
  await page.goto('/ui/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Repository views' }).waitFor();
}

/**
 * axe-core with the WCAG 2.1 A/AA tags on what the page shows now (a screen once settled, or an open
 * dialog): any serious or critical violation fails the test, named with its nodes.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // What a person sees once things settle: no hover colour under a resting pointer, no dialog half faded
  // in (both make axe measure contrast against colours that are on screen for a few frames only).
  await page.mouse.move(1, 1);
  // Two frames first: a transition started by the last key press or click shows up only then.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(serious, `axe on ${what}`).toEqual([]);
}

/** Saves a screenshot under docs/screenshots/ (committed; the README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(process.cwd(), 'docs', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** A name no other test run uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

/** Calls the API directly (for set-up a test does not exercise through the screens). */
export async function apiCall(
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ meta: { status: string; message: string }; payload: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as {
    meta: { status: string; message: string };
    payload: Record<string, unknown>;
  };
}

/** A token for `username` (the admin by default). */
export async function tokenFor(username = 'admin', password = adminPassword()): Promise<string> {
  const answer = await apiCall('POST', '/auth/login', { username, password });
  const token = (answer.payload.AuthToken as { token?: string } | undefined)?.token;
  if (token === undefined) throw new Error(`cannot sign in as ${username}: ${answer.meta.message}`);
  return token;
}

/** A new user with ROLE_CURATOR (of no view yet), created by the administrator through the API. */
export async function newCurator(): Promise<{ id: number; username: string; password: string }> {
  const username = unique('curator');
  const password = 'curator-e2e-password';
  const created = await apiCall(
    'POST',
    '/user/create',
    {
      username,
      password,
      role: 'ROLE_CURATOR',
      firstName: 'Cura',
      lastName: 'Tor',
      email: `${username}@example.org`,
    },
    await tokenFor(),
  );
  const id = (created.payload.User as { id?: number } | undefined)?.id;
  if (id === undefined) throw new Error(`cannot create ${username}: ${created.meta.message}`);
  return { id, username, password };
}

/**
 * A new user with ROLE_CURATOR, made a curator of the view named `viewName` (its other curators kept):
 * what a curator does in the workbench is tested signed in as one, never as the administrator.
 */
export async function curatorOf(viewName: string): Promise<{ username: string; password: string }> {
  const admin = await tokenFor();
  const { id, username, password } = await newCurator();
  const views = (await apiCall('GET', '/repository-view', undefined, admin)).payload.LinkedList as {
    id: number;
    name: string;
  }[];
  const found = views.find((view) => view.name === viewName);
  if (found === undefined) throw new Error(`no view named ${viewName}`);
  const view = (await apiCall('GET', `/repository-view/${found.id}`, undefined, admin)).payload
    .RepositoryView as { curators: { id: number }[] };
  const updated = await apiCall(
    'PUT',
    '/repository-view',
    { ...view, password: null, curators: [...view.curators.map((curator) => ({ id: curator.id })), { id }] },
    admin,
  );
  if (updated.meta.status !== 'SUCCESS')
    throw new Error(`cannot make ${username} a curator: ${updated.meta.message}`);
  return { username, password };
}

/**
 * What the suites that work in the embedded view start from: the admin's token, the view's id and context
 * prefix, and a new curator of it (the role the workbench is tested as).
 */
export async function embeddedViewSession(): Promise<{
  token: string;
  viewId: number;
  prefix: string;
  curator: { username: string; password: string };
}> {
  const token = await tokenFor();
  const views = (await apiCall('GET', '/repository-view', undefined, token)).payload.LinkedList as {
    id: number;
    name: string;
  }[];
  const embedded = views.find((view) => view.name === 'Embedded repository');
  if (embedded === undefined) throw new Error('no embedded view');
  const curator = await curatorOf('Embedded repository');
  return { token, viewId: embedded.id, prefix: `/repository-view-context/FEDORA/${embedded.id}`, curator };
}
