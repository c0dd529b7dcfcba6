import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

// System, Backups (docs/backups.md): a backup taken from the console is listed, downloaded byte for byte, and
// restored; the server restarts into it, so a key made after the backup is gone and the last restore is shown.
const spool = useSpool();

test.beforeAll(async () => {
  await createAdmin(spool());
});

test('System: take a backup, download it, restore it', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  await page.getByRole('button', { name: 'Back up now' }).click();
  const table = page.getByRole('table', { name: 'Backups' });
  const row = table.getByRole('row', { name: /manual-.*\.tar/ });
  await expect(row).toBeVisible();
  const name = ((await row.getByRole('cell').first().textContent()) ?? '').trim();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(name);
  const saved = await download.path();
  expect(readFileSync(saved)).toEqual(readFileSync(join(spool().dataDir, 'backups', name)));

  const made = await page.request.post('/api/user/api-keys', { data: { name: 'After the backup', scope: 'full' } });
  expect(made.ok()).toBe(true);

  await row.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Restoring: Spool restarts into the backup')).toBeVisible();
  // The restart: the list answers again once the restored app serves, and names the restore.
  await expect(async () => {
    await page.reload();
    await expect(page.getByLabel('Last restore')).toContainText(name, { timeout: 1000 });
  }).toPass();
  await expect(table.getByRole('row', { name: /pre-restore-.*\.tar/ })).toBeVisible();
  const keys = (await (await page.request.get('/api/user/api-keys')).json()) as { data: { name: string }[] };
  expect(keys.data.map((k) => k.name)).not.toContain('After the backup');
});
