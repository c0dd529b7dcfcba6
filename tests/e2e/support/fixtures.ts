import { test as base, expect, type Page } from '@playwright/test';
import { apiCall, startSpool, type Spool } from './spool.js';

/**
 * Every page in every spec runs under the server's Content-Security-Policy; Chromium reports anything it blocks as
 * a console error ("Refused to ... because it violates ... Content Security Policy"). A test whose page hit one
 * fails, so a CSP too strict for the console shows up in whichever spec uses the blocked feature.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    await use(page);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});

export { expect };

export const ADMIN = { username: 'admin', password: 'correct-horse-battery' };
export const MEMBER = { username: 'bob', password: 'bobs-password-1' };

/**
 * One fresh server for the whole spec file (so first-user mode is real), started before its first test and
 * stopped after its last. Tests in such a file run in order and build on each other.
 */
export function useSpool(opts: Parameters<typeof startSpool>[0] = {}): () => Spool {
  let spool: Spool | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    spool = await startSpool(opts);
  });
  test.afterAll(async () => {
    await spool?.stop();
  });
  // Read lazily: Playwright may resolve baseURL for the beforeAll scope too, before the server exists.
  // Playwright reads fixture arguments by destructuring, so the empty pattern is required.
  // eslint-disable-next-line no-empty-pattern
  test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);
  return () => {
    if (!spool) throw new Error('server not started');
    return spool;
  };
}

/** Creates the first (admin) account through the API; returns its session cookie. */
export async function createAdmin(spool: Spool): Promise<string> {
  const res = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.cookie!;
}

export async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}
