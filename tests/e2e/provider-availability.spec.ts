import { rmSync } from 'node:fs';
import { stopInnEntirely } from '../support/inn/outage.js';
import { innProvider } from '../support/inn/provider.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { film } from '../support/media/film.js';
import { ADMIN, expect, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';

// Issue 33 item 4 on the console: two real INN servers, `empty` (asked first) holding none of a file's articles and
// `full` holding them all. After a real read over WebDAV the providers screen's Availability table shows `empty`
// at 0% and `full` at 100% of the same count, in the 0-30 days column (the NZB's post date is now).
const root = `/var/tmp/spool-inn-availability-e2e-${process.pid}`;
let spool: Spool | undefined;
let full: InnServer;
let count = 0;
let cookie = '';

test.beforeAll(async () => {
  full = await ensureInn();
  const empty = await ensureInn(root);
  spool = await startSpool({
    config: {
      providers: [innProvider(empty, { id: 'empty' }), innProvider(full, { id: 'full' })],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
      // every article of the read from the providers (the probe cache would serve the first and last from disk)
      streaming: { probe_cache_size_mb: 0 },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;
  const posted = await full.postFile('Avail.Film.2026.mkv', film(3 * 768_000 + 5));
  const target = await importNzb(spool.baseURL, reg.cookie!, 'Avail.Film.2026.nzb', posted.nzbXml);
  const path = `${target}/Avail.Film.2026.mkv`.split('/').map(encodeURIComponent).join('/');
  const read = await fetch(`${spool.baseURL}/webdav${path}`, { headers: { Cookie: reg.cookie! } });
  expect(read.status).toBe(200);
  expect((await read.arrayBuffer()).byteLength).toBe(3 * 768_000 + 5);
  const res = await apiCall<{
    providers: { provider: string; windows: Record<string, Record<string, { had: number }>> }[];
  }>(spool.baseURL, 'GET', '/api/providers/availability', undefined, reg.cookie!);
  count = res.body.data.providers.find((p) => p.provider === 'full')!.windows['7']!['0-30d']!.had;
  expect(count).toBeGreaterThanOrEqual(posted.segments.length);
});

test.afterAll(async () => {
  await spool?.stop();
  await stopInnEntirely(root);
  rmSync(root, { recursive: true, force: true });
});

test('the providers screen shows each provider’s availability by post age from the real read', async ({ page }) => {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
  await page.goto(`${spool!.baseURL}/config/providers`);
  const table = page.getByRole('table', { name: 'Availability by post age' });
  await expect(table).toBeVisible();
  const row = (id: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id }) });
  await expect(row('full').getByRole('cell').first()).toHaveText(`100.0% (${count}/${count})`);
  await expect(row('empty').getByRole('cell').first()).toHaveText(`0.0% (0/${count})`);
  await expect(row('full').getByRole('cell').nth(3)).toHaveText('—'); // no article over 3 years old was asked
  await page.getByLabel('Window').selectOption('30');
  await expect(row('full').getByRole('cell').first()).toHaveText(`100.0% (${count}/${count})`);
});
