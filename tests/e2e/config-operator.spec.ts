import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';
import type { ConfigDoc } from './support/spool.js';

// The settings an operator needs to set up the arr loop without editing YAML (issue 21): import strategy and
// folders, watch folder, file filters, archive passwords, health sampling and the repair brake, logging, and which
// mount settings do nothing with the native mount.
const spool = useSpool();
const saved = () => parse(readFileSync(spool().configPath, 'utf8')) as ConfigDoc;

test.beforeAll(async () => {
  await createAdmin(spool());
});

test('Import: strategy, folders, STRM address, watch folder, filters and passwords are saved to the file', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/import');
  const save = page.getByRole('button', { name: 'Save Changes' });
  await page.getByLabel('Import strategy').selectOption('strm');
  const dir = page.getByLabel('Import directory');
  await dir.fill('downloads');
  await expect(page.getByText('Must be an absolute path (starting with /)')).toBeVisible();
  await expect(save).toBeDisabled();
  await dir.fill('/srv/downloads');
  await page.getByLabel('STRM base URL').fill('spool:8080');
  await expect(page.getByText('Invalid URL format')).toBeVisible();
  await page.getByLabel('STRM base URL').fill('http://spool:8080');
  await page.getByLabel('Watch folder', { exact: true }).fill('/srv/watch');
  await page.getByLabel('Watch interval (seconds)').fill('30');
  await page.getByLabel('Allowed file extensions').fill('.mkv\n.srt');
  await page.getByLabel('Leave out sample files').uncheck();
  await page.getByLabel('Keep failed items (hours)').fill('48');
  await page.getByLabel('Archive passwords', { exact: true }).fill('secret-one\nsecret-two');
  await save.click();
  await expect(page.getByText('Import settings saved')).toBeVisible();

  const file = saved().import!;
  expect(file).toMatchObject({
    import_strategy: 'strm',
    import_dir: '/srv/downloads',
    strm_base_url: 'http://spool:8080',
    watch_dir: '/srv/watch',
    watch_interval_seconds: 30,
    allowed_file_extensions: ['.mkv', '.srt'],
    filter_sample_files: false,
    failed_item_retention_hours: 48,
    archive_passwords: ['secret-one', 'secret-two'],
  });
  // The passwords are write-only: the form says how many are stored, never what they are.
  await page.reload();
  await expect(page.getByLabel('Archive passwords', { exact: true })).toHaveValue('');
  await expect(page.getByText('2 passwords are stored.')).toBeVisible();
  await expect(page.getByLabel('Import strategy')).toHaveValue('strm');
  await page.getByLabel('Remove stored archive passwords').check();
  await save.click();
  await expect(page.getByText('Import settings saved')).toBeVisible();
  expect(saved().import!.archive_passwords).toEqual([]);
});

test('Import: a queue interval change raises the restart banner', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/import');
  await page.getByLabel('Queue processing interval (seconds)').fill('30');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const banner = page.getByRole('status').filter({ hasText: 'Server restart required' });
  await expect(banner).toContainText('import.queue_processing_interval_seconds');
});

test('Health: sampling, repair retries and the repair brake are saved', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/health');
  await page.getByLabel('Articles sampled per check (%)').fill('12');
  await page.getByLabel('Max repair retries').fill('4');
  await page.getByLabel('Files turning bad (%)').fill('101');
  await expect(page.getByText('Must be a whole number from 1 to 100')).toBeVisible();
  await page.getByLabel('Files turning bad (%)').fill('40');
  await page.getByLabel('Within (minutes)').fill('90');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Health settings saved')).toBeVisible();
  expect(saved().health).toMatchObject({
    segment_sample_percentage: 12,
    max_repair_retries: 4,
    repair_breaker_percent: 40,
    repair_breaker_window_minutes: 90,
  });
});

test('System: the log settings are saved', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const form = page.getByRole('form', { name: 'Logging' });
  await form.getByLabel('Log level').selectOption('debug');
  await form.getByLabel('Log file').fill('logs/spool.log');
  await form.getByLabel('Rotated files kept').fill('5');
  await form.getByLabel('Compress rotated files').uncheck();
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Log settings saved')).toBeVisible();
  expect(saved().log).toMatchObject({ level: 'debug', file: 'logs/spool.log', max_backups: 5, compress: false });
});

test('Mount & RClone: the settings only rclone reads are greyed out while the native driver mounts', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/rclone');
  await expect(page.getByRole('note')).toContainText('Spool’s own FUSE driver');
  for (const label of ['VFS cache mode', 'Buffer size', 'Transfers', 'Use mmap'])
    await expect(page.getByLabel(label, { exact: true })).toBeDisabled();
  for (const label of ['UID', 'Umask', 'Directory cache time', 'Read only', 'Log level'])
    await expect(page.getByLabel(label, { exact: true })).toBeEnabled();
  await page.getByLabel('Extra mount options').fill('backend=rclone');
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect(page.getByLabel('VFS cache mode', { exact: true })).toBeEnabled();
});

test('the footer links to no address package.json does not name', async ({ page }) => {
  await signIn(page, ADMIN);
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('Spool v0.0.1-alpha')).toBeVisible();
  await expect(footer.getByRole('link')).toHaveCount(0);
});
