import type { Page } from '@playwright/test';
import { buildNzb, type PostedFile } from '../support/inn/poster.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { innProvider } from '../support/inn/provider.js';
import { film } from '../support/media/film.js';
import { ADMIN, MEMBER, expect, signIn, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';

// The read-only role in the console (docs/console-contract.md §6) and the Files screen's stream link, against the
// real server, a file posted to a real INN and imported through the real queue, in real Chromium.
let inn: InnServer;
let spool: Spool | undefined;
let adminCookie = '';
let movie: PostedFile;
const MOVIE = film(1_500_000, 'Movie.mkv');
const JOB = '/complete/movies/Link.Show';

test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

test.beforeAll(async () => {
  inn = await ensureInn();
  spool = await startSpool({
    config: {
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1, allowed_file_extensions: ['.mkv'] },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  adminCookie = reg.cookie!;
  const opened = await apiCall(
    spool.baseURL,
    'PATCH',
    '/api/config/auth',
    { section: 'auth', config: { registration_enabled: true } },
    adminCookie,
  );
  expect(opened.status).toBe(200);
  expect((await apiCall(spool.baseURL, 'POST', '/api/auth/register', MEMBER)).status).toBe(200);
  movie = await inn.postFile('Movie.mkv', MOVIE, { articleSize: 400_000 });
  expect(
    await importNzb(spool.baseURL, adminCookie, 'Link.Show.nzb', buildNzb([movie], inn.group, 'T <t@spool.test>')),
  ).toBe(JOB);
});

test.afterAll(async () => {
  await spool?.stop();
});

const menuOf = async (page: Page, name: string) => {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  return page.getByRole('menuitem');
};

test('an admin makes a user read-only and gives changes back in User Management', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/admin');
  const bob = page.locator('.user-row', { hasText: MEMBER.username });
  await bob.getByRole('button', { name: `Make Read-only: ${MEMBER.username}` }).click();
  await expect(bob.getByText('Read-only', { exact: true })).toBeVisible();
  await page.reload();
  await bob.getByRole('button', { name: `Allow Changes: ${MEMBER.username}` }).click();
  await expect(bob.getByText('Read-only', { exact: true })).toHaveCount(0);
  await bob.getByRole('button', { name: `Make Read-only: ${MEMBER.username}` }).click();
  await expect(bob.getByRole('button', { name: `Allow Changes: ${MEMBER.username}` })).toBeVisible();
});

test('a read-only user sees the queue, health and files, and no action that changes them', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.getByRole('button', { name: `${MEMBER.username} account menu` }).click();
  await expect(page.locator('#user-menu-panel').getByText('Read-only', { exact: true })).toBeVisible();

  await page.goto('/queue');
  await expect(page.getByText('Link.Show.nzb')).toBeVisible();
  await expect(page.getByText('Upload NZB Files')).toHaveCount(0);
  await expect(page.getByText('Manual Directory Scan')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clear Completed' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Retry|Process|Delete) Link\.Show/ })).toHaveCount(0);

  await page.goto('/health');
  await expect(page.getByRole('heading', { level: 2, name: 'Health Monitoring' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cleanup Old Records' })).toHaveCount(0);

  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  const items = await menuOf(page, 'Movie.mkv');
  await expect(items).toHaveText(['File Info', 'Preview', 'Download', 'Export as NZB']);
});

test('the Files screen copies a stream link that plays the file without a login', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN);
  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  const made = page.waitForResponse((r) => r.url().endsWith('/api/files/links') && r.request().method() === 'POST');
  await (await menuOf(page, 'Movie.mkv')).filter({ hasText: 'Copy Stream Link' }).click();
  const answer = (await (await made).json()) as { data: { url: string; path: string; created_by: string } };
  expect(answer.data.path).toBe(`${JOB}/Movie.mkv`);
  expect(answer.data.created_by).toBe(ADMIN.username);
  await expect(page.locator('.toast__title', { hasText: /^Stream Link Copied$/ })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(answer.data.url);
  expect(copied).toMatch(/\/stream\/[^/]+\/Movie\.mkv$/);

  // The link is the credential: no cookie, and the bytes are the posted file's.
  const path = new URL(copied).pathname;
  const res = await fetch(`${spool!.baseURL}${path}`, { headers: { range: 'bytes=0-1023' } });
  expect(res.status).toBe(206);
  expect(Buffer.from(await res.arrayBuffer()).equals(MOVIE.subarray(0, 1024))).toBe(true);
});
