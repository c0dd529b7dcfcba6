import type { Page } from '@playwright/test';
import { formatBytes } from '../../pwa/src/lib/format.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';
import { MALFORMED_NZB, postedNzb } from './support/nzb-files.js';

// the default configuration (the good release is a test film: tests/support/media/film.ts)
const spool = useSpool({ config: {} });
let inn: InnServer;
let cookie: string;

interface QueueStats {
  total_queued: number;
  total_processing: number;
  total_completed: number;
  total_failed: number;
}
interface PoolMetrics {
  active_connections: number;
  total_bytes_downloaded: number;
  command_success_rate_percent: number;
  error_rate_percent: number;
  acquire_wait_time_ms: number;
}

async function upload(name: string, xml: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([xml], { type: 'application/x-nzb' }), name);
  const res = await fetch(`${spool().baseURL}/api/queue/upload`, {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const get = async <T>(path: string) => (await apiCall<T>(spool().baseURL, 'GET', path, undefined, cookie)).body.data;
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  inn = await ensureInn();
  const added = await apiCall(
    spool().baseURL,
    'POST',
    '/api/providers',
    { host: inn.host, port: inn.port, username: inn.username, password: inn.password, max_connections: 4 },
    cookie,
  );
  expect(added.status).toBe(200);
});

test('an empty queue: zero figures, no attention banner, uPlot charts 300 px high', async ({ page }) => {
  await signIn(page, ADMIN);
  await expect(card(page, 'Queue Status').first()).toContainText('0 / 0');
  await expect(page.getByText('0 pending, 0 processing, 0 failed')).toBeVisible();
  await expect(page.getByText('Attention Required')).toHaveCount(0);
  const chart = page.getByRole('figure', { name: 'Queue distribution' });
  await expect(chart.locator('.uplot canvas')).toHaveCount(1);
  expect((await chart.getByRole('img').boundingBox())?.height).toBe(300);
  await expect(chart.locator('figcaption')).toHaveText('0Queued0Processing0Completed0Failed');
  await expect(page.getByRole('contentinfo')).toContainText('Queue: idle');
});

test('after real imports the cards, list, chart, badge and pool metrics follow the server', async ({ page }) => {
  await upload('Dash.Good.nzb', await postedNzb(inn, 'dash-good.mkv', 300_000));
  await upload('Dash.Broken.nzb', MALFORMED_NZB);
  await expect
    .poll(async () => {
      const s = await get<QueueStats>('/api/queue/stats');
      return [s.total_completed, s.total_failed];
    })
    .toEqual([1, 1]);

  await signIn(page, ADMIN);
  await expect(card(page, 'Queue Status').first()).toContainText('2 / 2');
  await expect(page.getByText('0 pending, 0 processing, 1 failed')).toBeVisible();
  const list = page.getByRole('list').filter({ hasText: 'Queued' });
  await expect(list.getByRole('listitem')).toHaveText([
    'Queued0 items',
    'Processing0 items',
    'Completed1 items',
    'Failed1 items',
  ]);
  await expect(page.getByRole('figure', { name: 'Queue distribution' }).locator('figcaption')).toHaveText(
    '0Queued0Processing1Completed1Failed',
  );
  const alert = page.getByRole('status').filter({ hasText: 'Attention Required' });
  await expect(alert).toContainText('1 failed queue items.');
  await expect(page.getByRole('link', { name: /Queue/ }).getByLabel('1 need attention')).toHaveText('1');

  // Pool metrics as the server counts them (the import fetched real articles from INN).
  const m = await get<PoolMetrics>('/api/system/pool/metrics');
  expect(m.total_bytes_downloaded).toBeGreaterThan(0);
  const pool = card(page, 'Pool Metrics');
  // The count moves on its own (the pool keeps an idle connection, docs/nntp.md): compared with the server's
  // figure of the moment until the card shows it.
  await expect(async () => {
    const now = await get<PoolMetrics>('/api/system/pool/metrics');
    await expect(pool).toContainText(`Active Connections${now.active_connections}`, { timeout: 1_000 });
  }).toPass();
  await expect(pool).toContainText(`Downloaded${formatBytes(m.total_bytes_downloaded)}`);
  const rate = pool.locator('dd').nth(2);
  await expect(rate).toHaveText(`${m.command_success_rate_percent.toFixed(1)}%`);
  const tone =
    m.command_success_rate_percent >= 95 ? 'success' : m.command_success_rate_percent >= 90 ? 'warning' : 'error';
  await expect(rate).toHaveClass(`text-${tone}`);
  await expect(pool.getByText('Error Rate')).toHaveCount(m.error_rate_percent > 0 ? 1 : 0);
  await expect(pool.getByText('Avg Wait Time')).toHaveCount(m.acquire_wait_time_ms > 100 ? 1 : 0);
});

// The thresholds of docs/console-contract.md §9 cannot be provoked on demand from a healthy INN, so these answers are shaped in the
// browser; everything else on the page is the real server.
test('pool metrics thresholds and the pool card failure', async ({ page }) => {
  let metrics: PoolMetrics = {
    active_connections: 3,
    total_bytes_downloaded: 5 * 1024 ** 3 + 300 * 1024 ** 2,
    command_success_rate_percent: 92.34,
    error_rate_percent: 7.66,
    acquire_wait_time_ms: 1500,
  };
  let fail = false;
  // The live channel's pool.metrics.tick (every 2 s) would put the server's own figures over these: the page
  // polls the metrics instead, from the route.
  await page.routeWebSocket(/\/api\/live$/, (ws) => ws.close({ code: 1011, reason: 'blocked by the test' }));
  await page.route('**/api/system/pool/metrics', (route) =>
    fail
      ? route.fulfill({ status: 400, json: { success: false, error: { message: 'nope' } } })
      : route.fulfill({ json: { success: true, data: metrics } }),
  );
  await signIn(page, ADMIN);
  const pool = card(page, 'Pool Metrics');
  await expect(pool).toContainText('Downloaded5.3 GB');
  await expect(pool.getByText('92.3%')).toHaveClass('text-warning');
  await expect(pool).toContainText('Error Rate7.7%');
  await expect(pool.getByText('1500 ms')).toHaveClass('text-warning');

  metrics = { ...metrics, command_success_rate_percent: 80, error_rate_percent: 0, acquire_wait_time_ms: 100 };
  await page.reload();
  await expect(pool.getByText('80.0%')).toHaveClass('text-error');
  await expect(pool.getByText('Error Rate')).toHaveCount(0);
  await expect(pool.getByText('Avg Wait Time')).toHaveCount(0);

  metrics = { ...metrics, command_success_rate_percent: 99.5, acquire_wait_time_ms: 250 };
  await page.reload();
  await expect(pool.getByText('99.5%')).toHaveClass('text-success');
  await expect(pool.getByText('250 ms')).not.toHaveClass('text-warning');

  fail = true;
  await page.reload();
  await expect(pool).toContainText('Pool Metrics');
  await expect(pool).toContainText('Failed to load');
  await expect(card(page, 'Queue Status').first()).toContainText('2 / 2'); // the rest of the page stays
});

test('a health statistics failure turns the Dashboard into the error; a failed later poll stays in its chart', async ({
  page,
}) => {
  // Fault injection: the health statistics call fails on demand; everything else is the real server. The live
  // channel is blocked, so the statistics are polled (while it is up nothing polls: docs/console.md "Live updates").
  await page.routeWebSocket(/\/api\/live$/, (ws) => ws.close());
  let fail = true;
  await page.route('**/api/health/stats', (route) =>
    fail
      ? route.fulfill({ status: 400, json: { success: false, error: { message: 'health offline' } } })
      : route.fulfill({
          json: { success: true, data: { total: 10, pending: 0, healthy: 7, partial: 2, corrupted: 1 } },
        }),
  );
  await signIn(page, ADMIN);
  await expect(page.getByText('Dashboard unavailable')).toBeVisible();
  await expect(page.getByText('Failed to load health statistics: health offline')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Queue distribution' })).toHaveCount(0);

  fail = false;
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Retry' }).click();
  await reloaded;
  const chart = page.getByRole('article', { name: 'File Health Status' });
  await expect(chart.locator('figcaption')).toHaveText('7Healthy2Partial1Corrupted');
  await expect(card(page, 'File Health').first()).toContainText('7 / 10');
  await expect(card(page, 'File Health').first()).toContainText('1 corrupted files');
  const alert = page.getByRole('status').filter({ hasText: 'Attention Required' });
  await expect(alert).toContainText('1 failed queue items.');
  await expect(alert).toContainText('1 corrupted files detected.');
  await expect(page.getByRole('link', { name: /Health/ }).getByLabel('3 need attention')).toHaveText('3');
  await expect(page.getByRole('contentinfo')).toContainText('Issues: 1');

  // The next 5 s poll fails (a 4xx is not retried): the last figures stay, the chart area says what failed.
  fail = true;
  await expect(chart).toContainText('Failed to load health statistics');
  await expect(page.getByText('Dashboard unavailable')).toHaveCount(0);
  await expect(card(page, 'File Health').first()).toContainText('7 / 10');
});

test('a queue statistics failure turns the Dashboard into an error with a reloading Retry', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.route('**/api/queue/stats', (route) =>
    route.fulfill({ status: 400, json: { success: false, error: { message: 'queue offline' } } }),
  );
  await page.reload();
  await expect(page.getByText('Dashboard unavailable')).toBeVisible();
  await expect(page.getByText('Failed to load queue statistics: queue offline')).toBeVisible();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Retry' }).click();
  await reloaded;
});
