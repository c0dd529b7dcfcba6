import type { Locator, Page, Request } from '@playwright/test';
import type { LastKnown } from '../../pwa/src/lib/lastKnown.js';
import { cancelArticles } from '../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { postedNzb } from './support/nzb-files.js';
import { apiCall } from './support/spool.js';
import { film } from '../support/media/film.js';

// The console sees Spool live: changes reach an open page over /api/live (an event, then its refetch) while its
// polling is off; with the channel blocked it polls at the contract's intervals; offline it shows the last known
// data with its age.
let inn: InnServer;
let cookie = '';
const spool = useSpool({
  config: {
    import: { queue_processing_interval_seconds: 1, allowed_file_extensions: ['.mkv'] },
    health: { enabled: true, auto_repair_enabled: false, max_retries: 0, check_all_segments: true },
  },
});
// The service worker stays out of the way: page.route must see every /api request of these pages.
test.use({ serviceWorkers: 'block' });

test.beforeAll(async () => {
  inn = await ensureInn();
  cookie = await createAdmin(spool());
  const provider = {
    host: inn.host,
    port: inn.port,
    username: inn.username,
    password: inn.password,
    max_connections: 4,
  };
  const added = await apiCall(spool().baseURL, 'POST', '/api/providers', provider, cookie);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
});

const footer = (page: Page) => page.getByRole('contentinfo');
const queueRow = (page: Page, name: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: `Select ${name}`, exact: true }) });
const healthRow = (page: Page, file: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: `Select ${file}`, exact: true }) });
const tile = (page: Page, label: string) =>
  page.locator('dl[aria-label="Queue statistics"] .stat-tile').filter({ hasText: label }).getByRole('definition');

/** POST /api/queue/upload through the API (not the page); the new item's id. */
async function upload(name: string, xml: string): Promise<number> {
  const form = new FormData();
  form.append('category', 'movies');
  form.append('file', new Blob([xml]), name);
  const res = await fetch(`${spool().baseURL}/api/queue/upload`, {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie },
  });
  const body = (await res.json()) as { data: { id: number } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data.id;
}

/**
 * The page's requests of `ours` on their way. A page left behind takes its requests with it: they neither finish
 * nor fail, so a navigation forgets them.
 */
function inFlight(page: Page, ours: (r: Request) => boolean): Set<Request> {
  const pending = new Set<Request>();
  page.on('request', (r) => ours(r) && pending.add(r));
  for (const done of ['requestfinished', 'requestfailed'] as const) page.on(done, (r) => pending.delete(r));
  page.on('framenavigated', (frame) => frame === page.mainFrame() && pending.clear());
  return pending;
}

/**
 * What the page heard on /api/live ('hello', 'queue.item.added', ...) and asked of `paths` ('ask'), in order, from
 * now on (before the page opens), and how many of those requests are still on their way.
 */
function traffic(page: Page, paths: RegExp) {
  const log: string[] = [];
  const pending = inFlight(page, (r) => paths.test(new URL(r.url()).pathname));
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.endsWith('/api/live')) return;
    ws.on('framereceived', ({ payload }) => {
      const msg = JSON.parse(String(payload)) as { type: string; topic?: string };
      if (msg.type === 'hello' || msg.type === 'event') log.push(msg.topic ?? msg.type);
    });
  });
  page.on('request', (r) => paths.test(new URL(r.url()).pathname) && log.push('ask'));
  return {
    log,
    /** The refetch that follows going live (the channel's hello) has been asked for and answered. */
    resynced: () => {
      const hello = log.lastIndexOf('hello');
      return hello >= 0 && log.indexOf('ask', hello) > hello && pending.size === 0;
    },
    /** Requests from `from` on, none before a live event of `topic` (a prefix): the page asked because of it. */
    askedAfter: (from: number, topic: string) => {
      const since = log.slice(from);
      const firstAsk = since.indexOf('ask');
      return firstAsk > 0 && since.slice(0, firstAsk).some((t) => t.startsWith(topic));
    },
  };
}

/** What the page keeps for offline use (pwa/src/lib/lastKnown.ts), as it is in localStorage now. */
async function kept(page: Page) {
  const raw = await page.evaluate(() => localStorage.getItem('spool.lastKnown'));
  return raw === null ? null : (JSON.parse(raw) as LastKnown);
}

/** The answers the page keeps for offline use: when the last one ended (page clock), and those still on their way. */
function keptAnswers(page: Page) {
  // as lastKnown.ts's partOf: the figures, and the first page of the queue and health lists without a filter
  const ours = (r: Request) => {
    const url = new URL(r.url());
    if (/^\/api\/(queue\/stats|health\/stats|system\/pool\/metrics)$/.test(url.pathname)) return true;
    const q = url.searchParams;
    const firstPage = (q.get('offset') ?? '0') === '0' && !q.get('status') && !q.get('search');
    return /^\/api\/(queue|health)$/.test(url.pathname) && firstPage;
  };
  let last = 0;
  const pending = inFlight(page, ours);
  page.on('requestfinished', async (r) => {
    if (!ours(r)) return;
    const { startTime, responseEnd } = r.timing();
    if ((await r.response())?.ok()) last = Math.max(last, startTime + Math.max(0, responseEnd));
  });
  return { last: () => last, pending: () => pending.size };
}

async function turnAutoRefreshOff(page: Page): Promise<void> {
  await page.getByRole('switch').uncheck();
  await expect(page.getByText('Auto-refresh off')).toBeVisible();
}

test('live: an upload and its import reach an open Queue page, asked for by live events, polling off', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  const queue = traffic(page, /^\/api\/queue/);
  await page.goto('/queue');
  await expect(footer(page).getByText('Live', { exact: true })).toBeVisible();
  await turnAutoRefreshOff(page);
  await expect(() => expect(queue.resynced(), queue.log.join(',')).toBe(true)).toPass();
  const idle = queue.log.length;
  await page.waitForTimeout(6_000); // longer than the 5 s stats interval: nothing polls while live
  expect(queue.log.slice(idle)).toEqual([]);

  const xml = await postedNzb(inn, 'Live.Movie.mkv');
  await upload('Live.Movie.nzb', xml);
  await expect(queueRow(page, 'Live.Movie.nzb')).toBeVisible();
  expect(queue.askedAfter(idle, 'queue.'), queue.log.slice(idle).join(', ')).toBe(true);

  // The import's completion: once the API says completed, the open page shows it (polling is still off).
  await expect
    .poll(
      async () =>
        (await apiCall<{ status: string }[]>(spool().baseURL, 'GET', '/api/queue', undefined, cookie)).body.data[0]
          ?.status,
      { intervals: [100] },
    )
    .toBe('completed');
  await expect(queueRow(page, 'Live.Movie.nzb')).toHaveAttribute('data-status', 'completed');
  await expect(tile(page, 'Completed')).toHaveText('1');
});

test('live: a health verdict reaches an open Health page, polling off', async ({ page }) => {
  const posted = await inn.postFile('Verdict.Movie.mkv', film(150_000), { articleSize: 64_000 });
  const target = await importNzb(spool().baseURL, cookie, 'Verdict.Movie.nzb', posted.nzbXml);
  const file = `${target}/Verdict.Movie.mkv`;
  const statusOf = async () => {
    const r = await apiCall<{ file_path: string; status: string }[]>(
      spool().baseURL,
      'GET',
      '/api/health?limit=100',
      undefined,
      cookie,
    );
    return r.body.data.find((h) => h.file_path === file)?.status;
  };
  const check = async () => {
    const res = await apiCall(
      spool().baseURL,
      'POST',
      '/api/health/check',
      { file_path: file, source_nzb_path: 'Verdict.Movie.nzb', priority: true },
      cookie,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  await check();
  await expect.poll(statusOf).toBe('healthy');

  await signIn(page, ADMIN);
  await page.goto('/health');
  await expect(footer(page).getByText('Live', { exact: true })).toBeVisible();
  await turnAutoRefreshOff(page);
  await expect(healthRow(page, 'Verdict.Movie.mkv')).toHaveAttribute('data-status', 'healthy');

  // The articles go from the server; the next check's verdict reaches the open page, which does not poll.
  cancelArticles(
    inn,
    posted.segments.map((s) => s.messageId),
  );
  await check();
  await expect(healthRow(page, 'Verdict.Movie.mkv')).toHaveAttribute('data-status', 'corrupted');
});

test('with /api/live blocked the footer says Polling and the page still updates by polling', async ({ page }) => {
  let attempts = 0;
  await page.routeWebSocket(/\/api\/live$/, (ws) => {
    attempts++;
    ws.close({ code: 1011, reason: 'blocked by the test' });
  });
  await signIn(page, ADMIN);
  await page.goto('/queue');
  await expect(footer(page).getByText('Polling', { exact: true })).toBeVisible();
  await turnAutoRefreshOff(page);
  await expect(tile(page, 'Completed')).toHaveText('2');

  await importNzb(spool().baseURL, cookie, 'Polled.Movie.nzb', await postedNzb(inn, 'Polled.Movie.mkv'));
  // The stats are polled every 5 s while the channel is down.
  await expect(tile(page, 'Completed')).toHaveText('3');
  await expect(footer(page).getByText('Polling', { exact: true })).toBeVisible();
  expect(attempts).toBeGreaterThan(0);
});

test('offline: the last known queue, health and dashboard figures are shown with their age', async ({ page }) => {
  await signIn(page, ADMIN);
  const answers = keptAnswers(page);
  await page.goto('/health');
  await expect(healthRow(page, 'Verdict.Movie.mkv')).toHaveAttribute('data-status', 'corrupted');
  // written half a second after it arrives (a reload before then loses it)
  await expect.poll(async () => (await kept(page))?.health?.data.map((h) => h.status)).toContain('corrupted');
  await page.goto('/queue');
  await expect(queueRow(page, 'Polled.Movie.nzb')).toBeVisible();
  await expect(tile(page, 'Completed')).toHaveText('3');
  await expect.poll(async () => (await kept(page))?.queueStats?.total_completed).toBe(3);
  const polled = (q: { nzb_path: string }) => q.nzb_path.endsWith('Polled.Movie.nzb');
  await expect.poll(async () => (await kept(page))?.queue?.data.some(polled)).toBe(true);

  await page.route('**/api/**', (r) => r.abort('internetdisconnected'));
  // Every answer the page kept (the refetch after going live too) is written before the clock jumps: a write
  // after it would be dated by the jumped clock.
  await expect(async () => {
    const savedAt = (await kept(page))?.savedAt ?? 0;
    const state = { pending: answers.pending(), savedAt, lastAnswer: answers.last() };
    expect(state.pending === 0 && savedAt >= state.lastAnswer, JSON.stringify(state)).toBe(true);
  }).toPass();
  await page.clock.setFixedTime(Date.now() + 5 * 60_000);
  await page.reload();
  await expect(page.getByText('Connection to server failed.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Last updated' })).toHaveText(
    'Last updated 5 minutes ago — server unreachable',
  );
  const queue = page.getByRole('table', { name: 'Last known queue' });
  for (const name of ['Live.Movie.nzb', 'Verdict.Movie.nzb', 'Polled.Movie.nzb']) {
    await expect(queue.getByRole('row').filter({ hasText: name })).toContainText('completed');
  }
  const health = page.getByRole('table', { name: 'Last known health' });
  await expect(health.getByRole('row').filter({ hasText: 'Verdict.Movie.mkv' })).toContainText('corrupted');
  const figures = page.getByRole('region', { name: 'Last known data' }).locator('dl div');
  await expect(figures.filter({ hasText: 'Completed' }).getByRole('definition')).toHaveText('3');
});

test('signing out deletes what was kept', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/queue');
  await expect(queueRow(page, 'Polled.Movie.nzb')).toBeVisible();
  await expect.poll(() => kept(page)).not.toBeNull();
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate('localStorage.getItem("spool.lastKnown")')).toBeNull();
});
