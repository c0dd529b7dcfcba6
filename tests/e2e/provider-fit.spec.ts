import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { FitReportResponse } from '../../appliance/providers/fit.wire.js';
import { cancelArticles } from '../support/inn/cancel.js';
import { stopInnEntirely } from '../support/inn/outage.js';
import { innProvider } from '../support/inn/provider.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { film } from '../support/media/film.js';
import { ADMIN, expect, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';

// Issue 33 item 5 on the console, from a real sample run: the primary (the shared INN) holds an imported file of 24
// articles and then loses 12 of them (cancelled); a second real INN, added in the provider form as a candidate,
// holds 6 of those 12. The fit report under the provider list shows 50% of the misses filled, with its interval
// and sample; the cost table shows the primary's monthly price once set in the form, and a negative price is
// refused with the field's message.
const root = `/var/tmp/spool-inn-fit-e2e-${process.pid}`;
const ARTICLE = 4_000;
let spool: Spool | undefined;
let primary: InnServer;
let candidate: InnServer;
let cookie = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  primary = await ensureInn();
  candidate = await ensureInn(root);
  spool = await startSpool({
    config: {
      providers: [innProvider(primary, { id: 'primary' })],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;
  const posted = await primary.postFile('Fit.Film.2026.mkv', film(24 * ARTICLE), { articleSize: ARTICLE });
  await importNzb(spool.baseURL, cookie, 'Fit.Film.2026.nzb', posted.nzbXml);
  const ids = posted.messageIds;
  cancelArticles(
    primary,
    ids.filter((_, i) => i % 2 === 0),
  );
  const kept = ids.filter((_, i) => i % 4 === 0);
  await candidate.postFile('copy.bin', randomBytes(kept.length * ARTICLE), { articleSize: ARTICLE, messageIds: kept });
});

test.afterAll(async () => {
  await spool?.stop();
  await stopInnEntirely(root);
  rmSync(root, { recursive: true, force: true });
});

const toastWith = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text }).last();

/** The report once the candidate's pass has asked it every one of the primary's 12 misses. */
async function sampled(): Promise<void> {
  for (;;) {
    const r = await apiCall<FitReportResponse>(spool!.baseURL, 'GET', '/api/providers/fit', undefined, cookie);
    if (r.body.data.candidates[0]?.all.misses_filled.n === 12) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('a candidate added in the form is sampled and the fit report and cost view render from the real run', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
  await page.goto(`${spool!.baseURL}/config/providers`);

  await page.getByRole('button', { name: 'Add Provider' }).click();
  const m = page.getByRole('dialog');
  await m.getByLabel('Host').fill(candidate.host);
  await m.getByLabel('Port').fill(String(candidate.port));
  await m.getByLabel('Username').fill(candidate.username);
  await m.getByLabel('Password').fill(candidate.password);
  await m.getByLabel(/Candidate/).check();
  await m.getByLabel('STATs per hour').fill('500');
  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toContainText('Connection successful');
  await m.getByRole('button', { name: 'Add Provider' }).click();
  await expect(m).toHaveCount(0);
  await expect(page.getByText('Candidate: never read from')).toBeVisible();

  await sampled();
  await page.reload(); // the report as it stands now, not at the screen's next refetch
  const table = page.getByRole('table', { name: /^Fit of .* by post age$/ });
  await expect(table).toBeVisible();
  const row = (band: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: band }) });
  await expect(row('0-30 days').getByRole('cell').first()).toHaveText(/^50\.0% \(\d+\.\d%–\d+\.\d%, n=12\)$/);
  await expect(row('Over 3 years').getByRole('cell').first()).toHaveText('—');
  await expect(page.getByText(/0 errors, not counted/)).toBeVisible();

  const primaryLabel = `${primary.host}:${primary.port}`;
  await page.getByRole('button', { name: `Edit ${primaryLabel}` }).click();
  await m.getByLabel('Price per month').fill('-1');
  await m.getByRole('button', { name: 'Save Provider' }).click();
  await expect(toastWith(page, 'Save Failed')).toContainText('A price cannot be negative');
  await m.getByLabel('Price per month').fill('10');
  await m.getByRole('button', { name: 'Save Provider' }).click();
  await expect(m).toHaveCount(0);
  const cost = page.getByRole('table', { name: 'Cost by account' });
  const primaryRow = cost.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'primary' }) });
  await expect(primaryRow.getByRole('cell').nth(0)).toHaveText('Monthly');
  await expect(primaryRow.getByRole('cell').nth(2)).toHaveText('10.00');
});
