import type { Locator, Page } from '@playwright/test';
import { startFakeArr, type FakeArr } from '../support/fake-arr/server.js';
import { buildNzb, type PostedFile } from '../support/inn/poster.js';
import { cancelArticles } from '../support/inn/cancel.js';
import { innProvider } from '../support/inn/provider.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { ADMIN, expect, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';
import type { HealthScheduleJson } from '../../appliance/health/health.wire.js';
import { film } from '../support/media/film.js';

// The Health screen against the real server: files posted to a real INN and imported, checked by the real health
// worker; one file loses its articles on INN (ctlinnd cancel) so it turns corrupted for real, and repair goes to a
// fake Radarr (tests/support/fake-arr) over real HTTP.
let inn: InnServer;
let radarr: FakeArr;
let spool: Spool | undefined;
let cookie = '';
let broken: PostedFile;
const BATCH = '/complete/movies/Health.Batch';
const BROKEN = '/complete/movies/Broken.Movie';
const BROKEN_FILE = `${BROKEN}/Broken.Movie.mkv`;
const EPISODES = Array.from({ length: 22 }, (_, i) => `Ep.${String(i + 1).padStart(3, '0')}.mkv`);
const POSTER = 'Spool Test <poster@spool.test>';

interface HealthRecord {
  id: number;
  file_path: string;
  source_nzb_path: string | null;
  status: string;
  last_error: string | null;
  error_details: unknown;
  retry_count: number;
  max_retries: number;
  repair_retry_count: number;
  max_repair_retries: number;
}
interface HealthStats {
  total: number;
  pending: number;
  healthy: number;
  partial: number;
  corrupted: number;
}
interface WorkerStatus {
  status: string;
  total_files_checked: number;
}

// The machine running the suite may be busy (a browser start or a first click has taken tens of seconds under
// load), so this long spec waits longer than the default.
test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

const get = async <T>(path: string): Promise<T> => {
  const res = await apiCall<T>(spool!.baseURL, 'GET', path, undefined, cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const records = async (): Promise<HealthRecord[]> => get<HealthRecord[]>('/api/health?limit=100');
const recordOf = async (path: string) => (await records()).find((r) => r.file_path === path);

/** Every imported file has a record (added through POST /api/health/check when the import did not add one). */
async function ensureRecords(paths: string[], nzb: (path: string) => string): Promise<void> {
  const known = new Set((await records()).map((r) => r.file_path));
  for (const file_path of paths.filter((p) => !known.has(p))) {
    const res = await apiCall(
      spool!.baseURL,
      'POST',
      '/api/health/check',
      { file_path, source_nzb_path: nzb(file_path), priority: false },
      cookie,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Waits until no record is pending or checking. */
async function settled(): Promise<void> {
  await expect
    .poll(async () => (await records()).filter((r) => r.status === 'pending' || r.status === 'checking').length)
    .toBe(0);
}

test.beforeAll(async () => {
  inn = await ensureInn();
  radarr = await startFakeArr({ type: 'radarr' });
  const instance = { name: 'radarr', type: 'radarr', url: radarr.url, api_key: radarr.apiKey, enabled: true };
  spool = await startSpool({
    config: {
      providers: [innProvider(inn)],
      arrs: { enabled: true, radarr_instances: [{ ...instance, root_folder: '' }], sonarr_instances: [] },
      import: { queue_processing_interval_seconds: 1, allowed_file_extensions: ['.mkv'] },
      health: { enabled: true, auto_repair_enabled: false, max_retries: 0, check_all_segments: true },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;

  const episodes = await Promise.all(EPISODES.map((n) => inn.postFile(n, film(2048, n))));
  expect(await importNzb(spool.baseURL, cookie, 'Health.Batch.nzb', buildNzb(episodes, inn.group, POSTER))).toBe(BATCH);
  broken = await inn.postFile('Broken.Movie.mkv', film(300_000), { articleSize: 100_000 });
  expect(await importNzb(spool.baseURL, cookie, 'Broken.Movie.nzb', buildNzb([broken], inn.group, POSTER))).toBe(
    BROKEN,
  );
  await ensureRecords([...EPISODES.map((n) => `${BATCH}/${n}`), BROKEN_FILE], (p) =>
    p.startsWith(BATCH) ? 'Health.Batch.nzb' : 'Broken.Movie.nzb',
  );
  await settled();
});

test.afterAll(async () => {
  await spool?.stop();
  await radarr?.close();
});

async function signedIn(page: Page): Promise<void> {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
}

const dialog = (page: Page) => page.getByRole('dialog');
const toast = (page: Page, title: string, kind = ''): Locator =>
  page.locator(kind ? `.toast--${kind}` : '.toast').filter({ has: page.getByText(title, { exact: true }) });
const row = (page: Page, file: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: `Select ${file}`, exact: true }) });
const pager = (page: Page) => page.getByRole('navigation', { name: 'Health pages' });
const listRequest = (page: Page, check: (url: URL) => boolean) =>
  page.waitForRequest((r) => {
    const url = new URL(r.url());
    return r.method() === 'GET' && url.pathname === '/api/health' && check(url);
  });

test('the list, tiles and worker card follow the server; 20 per page', async ({ page }) => {
  await signedIn(page);
  await page.goto('/');
  await page.getByRole('link', { name: /Health/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Health Monitoring' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Health Monitoring' })).toBeVisible();

  const stats = await get<HealthStats>('/api/health/stats');
  expect(stats.total).toBe(23);
  const tile = (label: string) => page.getByLabel('Health statistics').locator('div').filter({ hasText: label });
  await expect(tile('Files Tracked')).toContainText(String(stats.total));
  await expect(tile('Pending')).toContainText(String(stats.pending));
  await expect(tile('Partial')).toContainText(String(stats.partial));
  await expect(tile('Corrupted')).toContainText(String(stats.corrupted));
  await expect(page.getByText('Corrupted Files Detected')).toHaveCount(0);

  const worker = await get<WorkerStatus>('/api/health/worker/status');
  const card = page.getByRole('article', { name: 'Health Worker Status' });
  await expect(card).toContainText(worker.status === 'running' ? 'Running' : 'Stopped');
  for (const label of ['Manual Checks', 'Files Checked', 'Corrupted', 'Runs', 'Last Run']) {
    await expect(card.getByText(label, { exact: true })).toBeVisible();
  }
  await expect
    .poll(async () => Number(await card.locator('dt:text-is("Files Checked") + dd').textContent()))
    .toBeGreaterThanOrEqual(worker.total_files_checked);

  // Newest first by default: the broken movie was imported last.
  await expect(page.getByRole('columnheader', { name: 'Created At' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('row').nth(1)).toContainText('Broken.Movie.mkv');
  await expect(page.getByRole('row')).toHaveCount(21);
  await expect(pager(page)).toContainText('Showing 1-20 of 23 results');
  const second = listRequest(page, (u) => u.searchParams.get('offset') === '20');
  await pager(page).getByRole('button', { name: 'Next' }).click();
  expect((await second).url()).toContain('limit=20');
  await expect(pager(page)).toContainText('Showing 21-23 of 23 results');
  await expect(page.getByRole('row')).toHaveCount(4);

  const healthy = (await records()).find((r) => r.file_path === `${BATCH}/Ep.001.mkv`)!;
  await expect(row(page, 'Ep.001.mkv')).toHaveAttribute('data-status', healthy.status);
  await expect(row(page, 'Ep.001.mkv')).toContainText(`H: ${healthy.retry_count}/${healthy.max_retries}`);
  await expect(row(page, 'Ep.001.mkv')).toContainText('Health.Batch.nzb');
});

test('the schedule card shows the share verified, the backlog and the budget; the settings change the budget', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto('/health');
  const s = await get<HealthScheduleJson>('/api/health/schedule');
  const card = page.getByRole('article', { name: 'Verification Schedule' });
  await expect(card).toContainText(`Verified (last ${s.window_days} days)`);
  await expect(card).toContainText(`(${s.verified_files} of ${s.total_files})`);
  expect(s.verified_files).toBeGreaterThan(0);
  await expect(card).toContainText(`${s.backlog_files} files due`);
  await expect(card).toContainText('100,000 STAT/h, 1,200 BODY/h');
  await expect(card).toContainText(s.keeps_up ? 'Keeps Up' : 'Falling Behind');
  await expect(card).toContainText(`new (< 7 d): every 24 h, ${s.tiers[0]!.files} files`);

  await page.goto('/config/health');
  const budget = page.getByLabel('STAT per hour');
  await expect(budget).toHaveValue('100000');
  await expect(page.getByLabel('Older: check every (hours)')).toHaveValue('720');
  await budget.fill('50000');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect
    .poll(
      async () => (await get<{ health: { stat_budget_per_hour: number } }>('/api/config')).health.stat_budget_per_hour,
    )
    .toBe(50_000);
  await page.goto('/health');
  await expect(card).toContainText('50,000 STAT/h, 1,200 BODY/h');
  // Back to the default for the tests after this one.
  const res = await apiCall(
    spool!.baseURL,
    'PATCH',
    '/api/config/health',
    { section: 'health', config: { stat_budget_per_hour: 100_000 } },
    cookie,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

test('search, status filter and sorting are the server’s; nothing found says so', async ({ page }) => {
  await signedIn(page);
  await page.goto('/health');
  await expect(page.getByRole('row')).toHaveCount(21);

  const searched = listRequest(page, (u) => u.searchParams.get('search') === 'Ep.007');
  await page.getByLabel('Search health records').fill('Ep.007');
  await searched;
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row(page, 'Ep.007.mkv')).toBeVisible();
  await page.getByLabel('Search health records').fill('no-such-file-anywhere');
  await expect(page.getByText('No health records found')).toBeVisible();
  await page.getByLabel('Search health records').fill('');

  const filtered = listRequest(page, (u) => u.searchParams.get('status') === 'healthy');
  await page.getByLabel('Status', { exact: true }).selectOption('healthy');
  await filtered;
  await expect(pager(page)).toContainText('of 23 results');
  await page.getByLabel('Status', { exact: true }).selectOption('corrupted');
  await expect(page.getByText('No health records found')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('');

  const byPath = listRequest(
    page,
    (u) => u.searchParams.get('sort_by') === 'file_path' && u.searchParams.get('sort_order') === 'asc',
  );
  await page.getByRole('button', { name: 'File Path' }).click();
  await byPath;
  await expect(page.getByRole('columnheader', { name: 'File Path' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('columnheader', { name: 'Created At' })).toHaveAttribute('aria-sort', 'none');
  await expect(page.getByRole('row').nth(1)).toContainText('Broken.Movie.mkv'); // /Broken… < /Health…
  await expect(page.getByRole('row').nth(2)).toContainText('Ep.001.mkv');
  await page.getByRole('button', { name: 'File Path' }).click();
  await expect(page.getByRole('columnheader', { name: 'File Path' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('row').nth(1)).toContainText('Ep.022.mkv');
});

test('auto-refresh: countdown, interval, pause while a filter has focus, resume 2 s after blur', async ({ page }) => {
  // the page's clock runs as usual, until the test stops it to look at the 2 s after the blur
  await page.clock.install();
  await signedIn(page);
  await page.goto('/health');
  await expect(page.getByText(/^Auto-refresh in [1-5]s$/)).toBeVisible();
  // The countdown reaching zero reloads the list.
  await listRequest(page, () => true);

  await page.getByLabel('Refresh interval').selectOption('10000');
  await expect(page.getByText(/^Auto-refresh in (10|9)s$/)).toBeVisible();
  await page.getByLabel('Refresh interval').selectOption('5000');

  await page.getByLabel('Search health records').focus();
  await expect(page.getByText('Auto-refresh paused')).toBeVisible();
  let reloads = 0;
  page.on('request', (r) => new URL(r.url()).pathname === '/api/health' && reloads++);
  await page.waitForTimeout(6000);
  expect(reloads).toBe(0); // paused for longer than one interval
  await page.getByLabel('Status', { exact: true }).focus(); // the other filter field keeps it paused
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 100);
  await page.getByRole('heading', { level: 2, name: 'Health Monitoring' }).click();
  await page.clock.runFor(1_990);
  await expect(page.getByText('Auto-refresh paused')).toBeVisible();
  await page.clock.runFor(20);
  await expect(page.getByText(/^Auto-refresh in \ds$/)).toBeVisible();
  await page.clock.resume();

  await page.getByRole('switch').uncheck();
  await expect(page.getByText('Auto-refresh off')).toBeVisible();
});

test('Retry Check; Delete Record asks first; bulk Restart Checks and Delete Selected with a partial select-all', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto('/health');
  await page.getByRole('button', { name: 'File Path' }).click(); // Broken, Ep.001 … Ep.019 on page 1

  const retried = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/retry'));
  await page.getByRole('button', { name: 'Retry Check Ep.001.mkv' }).click();
  const retry = await retried;
  expect(new URL(retry.url()).pathname).toBe(`/api/health/${encodeURIComponent(`${BATCH}/Ep.001.mkv`)}/retry`);
  expect(retry.postDataJSON()).toEqual({ reset_status: true });
  await expect(toast(page, 'Health Check Queued')).toBeVisible();
  await settled();

  await page.getByRole('button', { name: 'Delete Record Ep.002.mkv' }).click();
  await expect(dialog(page)).toContainText('Confirm Delete');
  await expect(dialog(page)).toContainText(
    'Are you sure you want to delete "Ep.002.mkv"? This action cannot be undone.',
  );
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, 'Ep.002.mkv')).toBeVisible();
  expect(await recordOf(`${BATCH}/Ep.002.mkv`)).toBeDefined();
  await page.getByRole('button', { name: 'Delete Record Ep.002.mkv' }).click();
  await dialog(page).getByRole('button', { name: 'Delete Record' }).click();
  await expect(toast(page, 'Health Record Deleted')).toBeVisible();
  await expect(row(page, 'Ep.002.mkv')).toHaveCount(0);
  expect(await recordOf(`${BATCH}/Ep.002.mkv`)).toBeUndefined();

  const all = page.getByRole('checkbox', { name: 'Select all on this page' });
  await page.getByRole('checkbox', { name: 'Select Ep.003.mkv' }).check();
  await page.getByRole('checkbox', { name: 'Select Ep.004.mkv' }).check();
  await expect(all).not.toBeChecked();
  expect(await all.evaluate((el: HTMLInputElement) => el.indeterminate)).toBe(true);
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toContainText('2 selected');
  // On a phone the table scrolls inside its card; the page itself never gets wider than the screen.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(desktop);

  await page.getByRole('button', { name: 'Restart Checks' }).click();
  await expect(dialog(page)).toContainText('Restart the health checks of 2 selected file(s)?');
  const restart = page.waitForRequest((r) => r.url().endsWith('/api/health/bulk/restart'));
  await dialog(page).getByRole('button', { name: 'Restart Checks' }).click();
  expect((await restart).postDataJSON()).toEqual({ file_paths: [`${BATCH}/Ep.003.mkv`, `${BATCH}/Ep.004.mkv`] });
  await expect(toast(page, 'Restarted 2 health check(s)')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toHaveCount(0); // selection cleared
  await settled();

  await page.getByRole('checkbox', { name: 'Select Ep.003.mkv' }).check();
  await page.getByRole('checkbox', { name: 'Select Ep.004.mkv' }).check();
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  await expect(dialog(page)).toContainText('delete 2 selected health record(s)');
  await dialog(page).getByRole('button', { name: 'Delete Selected' }).click();
  await expect(toast(page, 'Deleted 2 health record(s)')).toBeVisible();
  await expect(row(page, 'Ep.003.mkv')).toHaveCount(0);
  expect((await get<HealthStats>('/api/health/stats')).total).toBe(20);

  await all.check();
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toContainText('20 selected');
  expect(await all.evaluate((el: HTMLInputElement) => el.indeterminate)).toBe(false);
  await all.uncheck();
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toHaveCount(0);
});

test('a file whose articles are gone turns corrupted: its error, the red alert, badges, footer and Dashboard', async ({
  page,
}) => {
  cancelArticles(
    inn,
    broken.segments.map((s) => s.messageId),
  );
  await signedIn(page);
  await page.goto('/health');
  await page.getByLabel('Search health records').fill('Broken');
  await page.getByRole('button', { name: 'Retry Check Broken.Movie.mkv' }).click();
  await expect(row(page, 'Broken.Movie.mkv')).toHaveAttribute('data-status', 'corrupted');

  const record = (await recordOf(BROKEN_FILE))!;
  expect(record.status).toBe('corrupted');
  expect(record.last_error).toBeTruthy();
  const tip = row(page, 'Broken.Movie.mkv').locator('.status-tip');
  const cut = record.last_error!.length > 50 ? `${record.last_error!.slice(0, 50)}...` : record.last_error!;
  await expect(tip).toHaveAccessibleDescription(cut);
  await expect(row(page, 'Broken.Movie.mkv')).toContainText(`H: ${record.retry_count}/${record.max_retries}`);
  if (record.error_details || record.last_error!.length > 50) {
    await row(page, 'Broken.Movie.mkv').getByText('Technical details').click();
    await expect(row(page, 'Broken.Movie.mkv').locator('pre')).toBeVisible();
  }

  const stats = await get<HealthStats>('/api/health/stats');
  expect(stats.corrupted).toBe(1);
  await expect(page.getByRole('alert').filter({ hasText: 'Corrupted Files Detected' })).toContainText(
    '1 file is corrupted',
  );
  const badge = page.getByRole('link', { name: /Health/ }).getByLabel(/need attention/);
  await expect(badge).toHaveText(String(stats.corrupted + stats.partial));
  await expect(page.getByRole('contentinfo')).toContainText(`Issues: ${stats.corrupted}`);

  await page.getByRole('link', { name: 'Dashboard' }).click();
  const health = page.getByRole('article', { name: 'File Health', exact: true });
  // other files' checks may still finish (pending -> healthy) after the snapshot above: compare the card with the
  // server's figures of the moment, until they agree
  await expect(async () => {
    const now = await get<HealthStats>('/api/health/stats');
    await expect(health).toContainText(`${now.healthy} / ${now.total}`, { timeout: 2_000 });
    await expect(page.getByRole('figure', { name: 'File health status' }).locator('figcaption')).toHaveText(
      `${now.healthy}Healthy${now.partial}Partial${now.corrupted}Corrupted`,
      { timeout: 2_000 },
    );
  }).toPass();
  await expect(health).toContainText('1 corrupted files');
  await expect(page.getByRole('status').filter({ hasText: 'Attention Required' })).toContainText(
    '1 corrupted files detected.',
  );
});

test('Files: the corrupted file’s info shows its missing segments; Check Now queues it', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(BROKEN)}`);
  const shown = page.waitForRequest((r) => r.method() === 'PROPFIND' && r.headers()['x-show-corrupted'] === 'true');
  await page.getByLabel('Show corrupted files').check();
  await shown;
  await page.getByRole('button', { name: 'Actions for Broken.Movie.mkv' }).click();
  await page.getByRole('menuitem', { name: 'File Info', exact: true }).click();
  const info = page.getByRole('dialog', { name: 'Broken.Movie.mkv' });
  const meta = (
    await apiCall<{ status: string; segment_count: number; available_segments: number }>(
      spool!.baseURL,
      'GET',
      `/api/files/info?path=${encodeURIComponent(BROKEN_FILE)}`,
      undefined,
      cookie,
    )
  ).body.data;
  const n = broken.segments.length;
  expect(meta).toMatchObject({ status: 'corrupted', segment_count: n, available_segments: 0 });
  await expect(info.getByText('corrupted', { exact: true })).toBeVisible();
  await expect(info.getByText(`0 of ${n} segments available (0.0%)`)).toBeVisible();
  await expect(info.getByRole('progressbar', { name: 'Segments available' })).toHaveAttribute('aria-valuenow', '0');

  const check = page.waitForRequest((r) => r.url().endsWith('/api/health/check') && r.method() === 'POST');
  await info.getByRole('button', { name: 'Check Now' }).click();
  expect((await check).postDataJSON()).toEqual({
    file_path: BROKEN_FILE,
    source_nzb_path: 'Broken.Movie.nzb',
    priority: true,
  });
  await expect(toast(page, 'File Added to Health Check Queue')).toBeVisible();

  await info.getByRole('tab', { name: 'Segments' }).click();
  await expect(info.locator('.file-facts')).toContainText(`Missing${n}`);
  await expect(info.locator('tbody tr')).toHaveCount(n);
  await expect(info.locator('tbody tr').first()).toContainText('missing');
  await expect(info.locator('tbody tr').first()).toContainText(broken.segments[0]!.messageId);
  await page.keyboard.press('Escape');
  await expect(info).toBeHidden();
  await settled();
});

test('Trigger Repair: a file no arr manages is a warning; once Radarr holds it the repair reaches it', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto('/health');
  await page.getByLabel('Search health records').fill('Broken');
  const record = (await recordOf(BROKEN_FILE))!;
  // Radarr's library does not hold the file yet, so no instance manages it: the server says NOT_FOUND.
  await page.getByRole('button', { name: 'Trigger Repair Broken.Movie.mkv' }).click();
  await expect(dialog(page)).toContainText('Ask Radarr or Sonarr to replace "Broken.Movie.mkv"?');
  const repair = page.waitForRequest((r) => r.url().endsWith(`/api/health/${record.id}/repair`));
  await dialog(page).getByRole('button', { name: 'Trigger Repair' }).click();
  expect((await repair).postDataJSON()).toEqual({ reset_repair_retry_count: false });
  // One locator for kind, title and text: a toast lives 3 s, too short for several waits on a busy machine.
  const warning = toast(page, 'File Not Found in ARR', 'warning');
  await expect(warning.filter({ hasText: 'not managed by any configured Radarr or Sonarr instance' })).toBeVisible();

  // Once Radarr has the file in its library, the repair reaches it.
  const mount = (await get<{ mount_path: string }>('/api/config')).mount_path;
  const movie = radarr.addMovie({ title: 'Broken Movie', path: `${mount}${BROKEN}` });
  const file = radarr.addMovieFile(movie.id, { path: `${mount}${BROKEN_FILE}`, sceneName: 'Broken.Movie' });
  await page.getByRole('button', { name: 'Trigger Repair Broken.Movie.mkv' }).click();
  await dialog(page).getByRole('button', { name: 'Trigger Repair' }).click();
  await expect(toast(page, 'Repair Triggered')).toBeVisible();
  expect(radarr.callLines()).toContain(`DELETE moviefile/${file.id}`);
  await expect(row(page, 'Broken.Movie.mkv')).toHaveAttribute('data-status', 'repair_triggered');
  const repaired = (await recordOf(BROKEN_FILE))!;
  await expect(row(page, 'Broken.Movie.mkv')).toContainText(
    `R: ${repaired.repair_retry_count}/${repaired.max_repair_retries}`,
  );
  await expect(row(page, 'Broken.Movie.mkv').getByRole('status', { name: 'repair_triggered' })).toBeVisible();
});

test('Trigger Repair: any other failure is an error with the server message', async ({ page }) => {
  await signedIn(page);
  await page.goto('/health');
  // Fault injection: the arr answers with an outage, which a loopback test cannot produce on demand.
  await page.route('**/api/health/*/repair', (route) =>
    route.fulfill({ status: 502, json: { success: false, error: { code: 'UPSTREAM', message: 'Radarr is down' } } }),
  );
  await page.getByRole('button', { name: 'Trigger Repair Ep.001.mkv' }).click();
  await dialog(page).getByRole('button', { name: 'Trigger Repair' }).click();
  await expect(toast(page, 'Failed to trigger repair')).toContainText('Radarr is down');
});

test('Cancel Check is offered only while a check runs, and asks first', async ({ page }) => {
  await signedIn(page);
  const target = (await recordOf(`${BATCH}/Ep.005.mkv`))!;
  // A check on loopback INN lasts milliseconds; the list answer is shaped so one row shows it running.
  await page.route(
    (url) => url.pathname === '/api/health',
    async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { data: HealthRecord[] };
      body.data = body.data.map((r) => (r.id === target.id ? { ...r, status: 'checking' } : r));
      await route.fulfill({ response: res, json: body });
    },
  );
  await page.goto('/health');
  await expect(row(page, 'Ep.005.mkv')).toHaveAttribute('data-status', 'checking');
  await expect(row(page, 'Ep.005.mkv').getByRole('status', { name: 'checking' })).toBeVisible(); // spinner
  await expect(page.getByRole('button', { name: 'Retry Check Ep.005.mkv' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel Check Ep.006.mkv' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel Check Ep.005.mkv' }).click();
  await expect(dialog(page)).toContainText('Cancel the running health check of "Ep.005.mkv"?');
  const cancel = page.waitForResponse((r) => r.url().endsWith(`/api/health/${target.id}/cancel`));
  // Watch for the toast before the click: it lives 3 s, which a busy machine can spend between two waits.
  const title = page
    .locator('.toast__title')
    .filter({ hasText: /^(Check Cancelled|Failed to cancel check)$/ })
    .first()
    .textContent({ timeout: 0 }); // no bound of its own: the test's timeout stops a hung run
  await dialog(page).getByRole('button', { name: 'Cancel Check' }).click();
  const answer = await cancel;
  // The record was not really checking, so the server may say there is nothing to cancel; either answer shows.
  expect(await title).toBe(answer.ok() ? 'Check Cancelled' : 'Failed to cancel check');
});

test('Cleanup Old Records asks first, sends a time seven days back, and keeps recent records', async ({ page }) => {
  await signedIn(page);
  await page.goto('/health');
  const before = (await get<HealthStats>('/api/health/stats')).total;
  await page.getByRole('button', { name: 'Cleanup Old Records' }).click();
  await expect(dialog(page)).toContainText('older than 7 days');
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Cleanup Old Records' }).click();
  const cleanup = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith('/api/health/cleanup'));
  await dialog(page).getByRole('button', { name: 'Cleanup' }).click();
  const sent = (await cleanup).postDataJSON() as { older_than: string };
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  expect(Math.abs(Date.parse(sent.older_than) - weekAgo)).toBeLessThan(60_000);
  await expect(toast(page, 'Cleanup Complete')).toContainText('Removed 0 old health record(s)');
  expect((await get<HealthStats>('/api/health/stats')).total).toBe(before);
});

test('bulk failures are Error toasts with the texts of the contract', async ({ page }) => {
  await signedIn(page);
  await page.goto('/health');
  // Fault injection: the store fails mid-request, which the real server cannot be made to do on demand.
  await page.route('**/api/health/bulk/*', (route) =>
    route.fulfill({ status: 500, json: { success: false, error: { code: 'INTERNAL', message: 'disk full' } } }),
  );
  await page.getByRole('checkbox', { name: 'Select Ep.001.mkv' }).check();
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  await dialog(page).getByRole('button', { name: 'Delete Selected' }).click();
  await expect(toast(page, 'Error')).toContainText('Failed to delete selected health records');
  await page.getByRole('checkbox', { name: 'Select Ep.001.mkv' }).check();
  await page.getByRole('button', { name: 'Restart Checks' }).click();
  await dialog(page).getByRole('button', { name: 'Restart Checks' }).click();
  await expect(toast(page, 'Error').last()).toContainText('Failed to restart selected health checks');
  expect(await recordOf(`${BATCH}/Ep.001.mkv`)).toBeDefined();
});

test('Add Manual Health Check (/health?add): both paths required, then queued or refused', async ({ page }) => {
  await signedIn(page);
  await page.goto('/health');
  await expect(page.getByRole('button', { name: /Add Manual Health Check/ })).toHaveCount(0); // no opener shown
  await page.goto('/health?add');
  const add = page.getByRole('dialog', { name: 'Add Manual Health Check' });
  await expect(add).toBeVisible();
  let posted = 0;
  page.on('request', (r) => r.url().endsWith('/api/health/check') && posted++);
  await add.getByLabel('File Path').fill(`${BATCH}/Ep.002.mkv`);
  await add.getByRole('button', { name: 'Add to Queue' }).click();
  const missing = toast(page, 'Missing Required Fields', 'warning');
  await expect(missing.filter({ hasText: 'Please fill in both file path and source NZB path' })).toBeVisible();
  expect(posted).toBe(0);

  await add.getByLabel('Source NZB Path').fill('Health.Batch.nzb');
  await add.getByLabel('Priority').check();
  const request = page.waitForRequest((r) => r.url().endsWith('/api/health/check'));
  await add.getByRole('button', { name: 'Add to Queue' }).click();
  expect((await request).postDataJSON()).toEqual({
    file_path: `${BATCH}/Ep.002.mkv`,
    source_nzb_path: 'Health.Batch.nzb',
    priority: true,
  });
  await expect(toast(page, 'File Added to Health Check Queue')).toBeVisible();
  await expect(add).toBeHidden();
  await expect(page).toHaveURL(/\/health$/);
  await expect.poll(async () => (await recordOf(`${BATCH}/Ep.002.mkv`))?.source_nzb_path).toBe('Health.Batch.nzb');

  await page.goto('/health?add');
  await add.getByLabel('File Path').fill('/complete/movies/Nowhere/None.mkv');
  await add.getByLabel('Source NZB Path').fill('None.nzb');
  await add.getByRole('button', { name: 'Add to Queue' }).click();
  await expect(toast(page, 'Failed to Add File')).toBeVisible();
  await expect(add).toBeVisible(); // kept open to correct the path
});
