import { buildNzb } from '../support/inn/poster.js';
import { cancelArticles } from '../support/inn/cancel.js';
import { innProvider } from '../support/inn/provider.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { ADMIN, expect, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';
import { film } from '../support/media/film.js';

// The repair brake on the Health screen, against the real server and INN: most files of a batch lose their articles
// on INN at once; their checks engage the brake, the screen says so with the repair history, and Resume releases it.
let inn: InnServer;
let spool: Spool | undefined;
let cookie = '';
const BATCH = '/complete/movies/Brake.Batch';
const FILES = Array.from({ length: 12 }, (_, i) => `Brake.${String(i + 1).padStart(2, '0')}.mkv`);

test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

test.beforeAll(async () => {
  inn = await ensureInn();
  spool = await startSpool({
    config: {
      providers: [innProvider(inn)],
      import: { queue_processing_interval_seconds: 1 },
      // No arr is configured: a repair that runs fails with "not managed", one that is held says so.
      health: { enabled: true, auto_repair_enabled: true, max_retries: 0, check_all_segments: true },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;
  const posted = await Promise.all(FILES.map((n) => inn.postFile(n, film(2048, n))));
  expect(await importNzb(spool.baseURL, cookie, 'Brake.Batch.nzb', buildNzb(posted, inn.group, 'Spool <p@s.t>'))).toBe(
    BATCH,
  );
  // The repairs of this spec run at once after their verdict (the default waits 30 min).
  const patched = await apiCall(
    spool.baseURL,
    'PATCH',
    '/api/config/health',
    { section: 'health', config: { repair_delay_minutes: 0 } },
    cookie,
  );
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  cancelArticles(
    inn,
    posted.slice(2).map((p) => p.messageIds[0]!),
  );
  const restart = await apiCall(
    spool.baseURL,
    'POST',
    '/api/health/bulk/restart',
    { file_paths: FILES.map((n) => `${BATCH}/${n}`) },
    cookie,
  );
  expect(restart.status, JSON.stringify(restart.body)).toBe(200);
  await expect
    .poll(
      async () =>
        (await apiCall<{ engaged: boolean }>(spool!.baseURL, 'GET', '/api/health/repairs', undefined, cookie)).body.data
          .engaged,
    )
    .toBe(true);
});

test.afterAll(async () => {
  await spool?.stop();
});

test('the Health screen shows the engaged brake and the repair history; Resume releases it', async ({ page }) => {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
  await page.goto('/health');
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Repairs' }) });
  await expect(card.getByText('Brake engaged', { exact: true })).toBeVisible();
  await expect(card.getByRole('alert')).toContainText(/files checked in the last 30 min turned bad/);
  const history = card.getByRole('table', { name: 'Repair history' });
  await expect(history.getByText('held', { exact: true }).first()).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText('arr');
  // each line names its step of the repair (docs/health.md "Continuity")
  await expect(history.getByRole('row').nth(1)).toContainText('Arr asked');

  const resumed = page.waitForResponse(
    (r) => r.url().endsWith('/api/health/repairs/resume') && r.request().method() === 'POST',
  );
  await card.getByRole('button', { name: 'Resume Repairs' }).click();
  expect((await resumed).status()).toBe(200);
  await expect(page.locator('.toast--success').filter({ hasText: 'Repairs Resumed' })).toBeVisible();
  await expect(card.getByText('Brake released', { exact: true })).toBeVisible();
  await expect(card.getByText(/Last resumed by admin/)).toBeVisible();
  // The held repairs ran once released: no arr manages these files, so they end as failed.
  await expect(history.getByText('failed', { exact: true }).first()).toBeVisible();
});

test('resume needs a signed-in admin: without a session the API refuses', async () => {
  const res = await apiCall<unknown>(spool!.baseURL, 'POST', '/api/health/repairs/resume', undefined, '');
  expect(res.status).toBe(401);
});
