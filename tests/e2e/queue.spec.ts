import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';
import { MALFORMED_NZB, missingArticleNzb, postedNzb } from './support/nzb-files.js';

// The scan reads only under import.scan_roots: this spec's folder is the one root.
const scanDir = mkdtempSync(join(tmpdir(), 'spool-e2e-scan-'));
const spool = useSpool({ config: { import: { scan_roots: [scanDir] } } });
let inn: InnServer;

test.beforeAll(async () => {
  const cookie = await createAdmin(spool());
  inn = await ensureInn();
  const added = await apiCall(
    spool().baseURL,
    'POST',
    '/api/providers',
    {
      host: inn.host,
      port: inn.port,
      username: inn.username,
      password: inn.password,
      max_connections: 4,
    },
    cookie,
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
});

test.afterAll(() => rmSync(scanDir, { recursive: true, force: true }));

const nzb = (name: string, xml: string) => ({ name, mimeType: 'application/x-nzb', buffer: Buffer.from(xml) });
const row = (page: Page, name: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('button', { name: `Delete ${name}` }) });
const dialog = (page: Page) => page.getByRole('dialog');

test('empty queue, upload several NZBs (a non-.nzb refused in the browser), see them import or fail', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.getByRole('link', { name: 'Queue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Queue Management' })).toBeVisible();
  await expect(page.getByText('Your queue is empty')).toBeVisible();
  await expect(page.getByText(/Auto-refresh in \ds/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear Completed' })).toHaveCount(0);

  const good = await postedNzb(inn, 'e2e-movie.mkv');
  const uploads = page.getByRole('list', { name: 'Uploads' });
  const requests: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/queue/upload') && requests.push(r.url()));
  await page
    .getByLabel('NZB files', { exact: true })
    .setInputFiles([
      nzb('Good.Movie.2024.nzb', good),
      nzb('Broken.Release.nzb', MALFORMED_NZB),
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an nzb') },
    ]);
  await expect(uploads.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText(
    'Only .nzb files are allowed',
  );
  await expect(uploads.getByRole('listitem').filter({ hasText: 'Good.Movie.2024.nzb' })).toContainText(
    /success \(queue id \d+\)/,
  );
  await expect(uploads.getByRole('listitem').filter({ hasText: 'Broken.Release.nzb' })).toContainText(/success/);
  expect(requests).toHaveLength(2); // the .txt never left the browser

  const goodRow = row(page, 'Good.Movie.2024.nzb');
  const brokenRow = row(page, 'Broken.Release.nzb');
  await expect(goodRow).toHaveAttribute('data-status', 'completed');
  await expect(brokenRow).toHaveAttribute('data-status', 'failed');
  await expect(goodRow).toContainText(/ID: \d+/);
  await expect(goodRow).toContainText('/complete/');
  await expect(goodRow.getByRole('button', { name: 'Retry Good.Movie.2024.nzb' })).toBeVisible();

  // Tiles and buttons follow /queue/stats.
  const tiles = page.getByRole('definition');
  await expect(tiles).toHaveText(['2', '0', '0', '1', '1']);
  await expect(page.getByRole('button', { name: 'Clear Completed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear Failed' })).toBeVisible();

  // The failed row explains itself in a tooltip.
  await brokenRow.locator('.status-tip').hover();
  await expect(brokenRow.getByRole('tooltip')).toBeVisible();
  await expect(brokenRow.getByRole('tooltip')).toContainText('The NZB could not be read');
});

test('search and status filter go to the server; no match has its own empty state', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/queue');
  await expect(page.getByRole('row')).toHaveCount(3);
  const search = page.getByLabel('Search queue');
  await search.fill('broken');
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row(page, 'Broken.Release.nzb')).toBeVisible();
  await expect(page.getByText('Auto-refresh paused')).toBeVisible(); // focus pauses the refresh
  await search.fill('');
  await page.getByLabel('Status filter').selectOption('completed');
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row(page, 'Good.Movie.2024.nzb')).toBeVisible();
  await search.fill('broken');
  await expect(page.getByText('No items match your search or filters')).toBeVisible();
  await search.blur();
  await expect(page.getByText(/Auto-refresh in \ds/)).toBeVisible(); // resumes 2 s after blur
});

test('retry, and delete with a confirmation that can be cancelled', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/queue');
  const broken = row(page, 'Broken.Release.nzb');
  const retried = page.waitForResponse((r) => /\/api\/queue\/\d+\/retry$/.test(r.url()) && r.ok());
  await broken.getByRole('button', { name: 'Retry Broken.Release.nzb' }).click();
  await retried;
  await expect(page.getByText('Retry queued')).toBeVisible();
  await expect(broken).toHaveAttribute('data-status', 'failed');

  await broken.getByRole('button', { name: 'Delete Broken.Release.nzb' }).click();
  await expect(dialog(page)).toContainText('Confirm Delete');
  await expect(dialog(page)).toContainText(
    'Are you sure you want to delete "Broken.Release.nzb"? This action cannot be undone.',
  );
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(broken).toBeVisible();
  await broken.getByRole('button', { name: 'Delete Broken.Release.nzb' }).click();
  await dialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(broken).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clear Failed' })).toHaveCount(0);
});

test('bulk restart and bulk delete of selected rows, then Clear Completed', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/queue');
  await page
    .getByLabel('NZB files', { exact: true })
    .setInputFiles([
      nzb('Lost.One.nzb', missingArticleNzb('lost1.mkv')),
      nzb('Lost.Two.nzb', missingArticleNzb('lost2.mkv')),
    ]);
  for (const name of ['Lost.One.nzb', 'Lost.Two.nzb']) {
    await expect(row(page, name)).toHaveAttribute('data-status', 'failed');
  }
  // The error tooltip describes the status badge (read by screen readers without hovering).
  await expect(row(page, 'Lost.One.nzb').locator('.status-tip')).toHaveAccessibleDescription(/missing/);

  await page.getByRole('checkbox', { name: 'Select Lost.One.nzb' }).check();
  await page.getByRole('checkbox', { name: 'Select Lost.Two.nzb' }).check();
  await expect(page.getByRole('checkbox', { name: 'Select all on this page' })).not.toBeChecked();
  // On a phone the bulk bar wraps inside the card instead of widening the page.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('group', { name: 'Bulk actions' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(desktop);
  await page.getByRole('button', { name: 'Restart Selected' }).click();
  await expect(dialog(page)).toContainText('Restart 2 selected item(s)?');
  const restarted = page.waitForResponse((r) => r.url().endsWith('/api/queue/bulk/restart'));
  await dialog(page).getByRole('button', { name: 'Restart Selected' }).click();
  expect((await restarted).ok()).toBe(true);
  await expect(page.getByText('Restarted 2 item(s)')).toBeVisible();
  for (const name of ['Lost.One.nzb', 'Lost.Two.nzb']) {
    await expect(row(page, name)).toHaveAttribute('data-status', 'failed');
  }

  await page.getByRole('checkbox', { name: 'Select Lost.One.nzb' }).check();
  await page.getByRole('checkbox', { name: 'Select Lost.Two.nzb' }).check();
  await page.getByRole('button', { name: 'Delete Selected' }).click();
  await expect(dialog(page)).toContainText('delete 2 selected item(s)');
  await dialog(page).getByRole('button', { name: 'Delete Selected' }).click();
  await expect(page.getByText('Deleted 2 item(s)')).toBeVisible();
  await expect(row(page, 'Lost.One.nzb')).toHaveCount(0);

  await page.getByRole('button', { name: 'Clear Completed' }).click();
  await expect(dialog(page)).toContainText('Remove all 1 completed item(s)');
  await dialog(page).getByRole('button', { name: 'Clear Completed' }).click();
  await expect(page.getByText('Cleared 1 completed item(s)')).toBeVisible();
  await expect(page.getByText('Your queue is empty')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear Completed' })).toHaveCount(0);
});

test('manual directory scan: path rules, progress, items appear; a second scan adds nothing', async ({ page }) => {
  mkdirSync(join(scanDir, 'nested/deeper'), { recursive: true });
  writeFileSync(join(scanDir, 'Scan.A.nzb'), missingArticleNzb('scan-a.mkv'));
  writeFileSync(join(scanDir, 'nested/deeper/Scan.B.nzb'), missingArticleNzb('scan-b.mkv'));
  writeFileSync(join(scanDir, 'nested/readme.txt'), 'ignored');

  await signIn(page, ADMIN);
  await page.goto('/queue');
  const card = page.getByRole('article').filter({ hasText: 'Manual Directory Scan' });
  const path = card.getByLabel('Directory path');
  const start = card.getByRole('button', { name: 'Start Scan' });
  await expect(card).toContainText('Idle');
  await expect(start).toBeDisabled();
  await path.fill('relative/nzbs');
  await start.click();
  await expect(card.getByText('Path must be absolute (start with /)')).toBeVisible();
  await path.fill(join(scanDir, 'nope'));
  await expect(card.getByText('Path must be absolute (start with /)')).toHaveCount(0); // clears on edit
  await start.click();
  await expect(card.getByText(/Not a directory/)).toBeVisible();

  await path.fill(scanDir);
  await start.click();
  await expect(card).toContainText('2 of 2 files added');
  await expect(card).toContainText('Idle');
  await expect(card.getByRole('progressbar', { name: 'Scan progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(row(page, 'Scan.A.nzb')).toBeVisible();
  await expect(row(page, 'Scan.B.nzb')).toBeVisible();
  await expect(row(page, 'Scan.B.nzb')).toContainText(/ID: \d+/);

  await start.click();
  await expect(card).toContainText('0 of 2 files added');
  // ...and says why nothing was added.
  await expect(card).toContainText('2 skipped: queued before');
  // Outside the scan roots nothing is read.
  await path.fill('/etc');
  await start.click();
  await expect(card.getByText(/Path must be inside a scan root/)).toBeVisible();
});

test('pagination: 20 per page, shown only with more than one page', async ({ page }) => {
  const more = join(scanDir, 'more');
  mkdirSync(more);
  for (let i = 1; i <= 21; i++) writeFileSync(join(more, `Page.Item.${i}.nzb`), missingArticleNzb(`page-${i}.mkv`));
  await signIn(page, ADMIN);
  await page.goto('/queue');
  await expect(page.getByRole('navigation', { name: 'Queue pages' })).toHaveCount(0);
  const card = page.getByRole('article').filter({ hasText: 'Manual Directory Scan' });
  await card.getByLabel('Directory path').fill(more);
  await card.getByRole('button', { name: 'Start Scan' }).click();
  await expect(card).toContainText('21 of 21 files added');

  const pager = page.getByRole('navigation', { name: 'Queue pages' });
  await expect(pager).toContainText('Showing 1-20 of 23 results');
  await expect(page.getByRole('row')).toHaveCount(21);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Showing 21-23 of 23 results');
  await expect(page.getByRole('row')).toHaveCount(4);
  await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await page.getByLabel('Search queue').fill('Page.Item.1');
  await expect(pager).toHaveCount(0); // 'Page.Item.1' and 'Page.Item.10-19': one page
});
