import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();
let cookie = '';

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
});

interface SabSection {
  enabled: boolean;
  complete_dir: string;
  fallback_host: string;
  fallback_api_key_set: boolean;
  categories: { name: string; order: number; priority: number; dir: string }[];
}

const savedSection = async () =>
  (await apiCall<{ sabnzbd: SabSection }>(spool().baseURL, 'GET', '/api/config', undefined, cookie)).body.data.sabnzbd;

test('SABnzbd API section: the spec validation texts, categories, and a write-only fallback key', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/sabnzbd');
  const save = page.getByRole('button', { name: 'Save Changes' });
  const dir = page.getByLabel('Complete directory');
  await expect(dir).toHaveValue('/complete');
  await expect(save).toBeDisabled();

  // Validation applies only while the API is enabled.
  await dir.fill('');
  await expect(page.getByText('Complete directory is required when SABnzbd API is enabled')).toHaveCount(0);
  await page.getByLabel('Enable SABnzbd API').check();
  await expect(page.getByText('Complete directory is required when SABnzbd API is enabled')).toBeVisible();
  await expect(save).toBeDisabled();
  await dir.fill('complete');
  await expect(page.getByText('Complete directory must be an absolute path (starting with /)')).toBeVisible();
  await expect(save).toBeDisabled();
  await dir.fill('/complete');
  await expect(save).toBeEnabled();

  // A new category: order 1, priority Normal, empty dir; sorted by order.
  const add = page.getByRole('button', { name: 'Add Category' });
  await expect(add).toBeDisabled();
  await page.getByLabel('New category').fill('  tv ');
  await add.click();
  await expect(page.getByText('Duplicate category names found: tv')).toBeVisible();
  await expect(save).toBeDisabled();
  const rows = page.getByRole('list', { name: 'Categories' }).getByRole('listitem');
  await expect(rows).toHaveCount(5);
  const added = rows.nth(1); // order 1, after movies (1) in a stable sort
  await expect(added.getByLabel('Name')).toHaveValue('tv');
  await added.getByLabel('Name').fill('');
  await expect(page.getByText('Category names cannot be empty')).toBeVisible();
  await added.getByLabel('Name').fill('anime');
  await expect(page.getByText('Category names cannot be empty')).toHaveCount(0);
  await added.getByLabel('Priority').selectOption({ label: 'High' });
  await added.getByLabel('Directory').fill('anime-dir');
  await added.getByLabel('Order').fill(''); // invalid input falls back to 0 (docs/console-contract.md §5)
  await expect(added.getByLabel('Order')).toHaveValue('0');

  await page.getByLabel('Fallback host').fill('http://sabnzbd:8080');
  await page.getByLabel('Fallback API key').fill('real-sab-key');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('SABnzbd settings saved')).toBeVisible();

  const stored = await savedSection();
  expect(stored.enabled).toBe(true);
  expect(stored.fallback_host).toBe('http://sabnzbd:8080');
  expect(stored.fallback_api_key_set).toBe(true);
  expect(stored).not.toHaveProperty('fallback_api_key');
  expect(stored.categories[0]).toEqual({ name: 'anime', order: 0, priority: 1, dir: 'anime-dir' });

  // The stored key shows as the mask and is not sent back: saving another change keeps it.
  await page.reload();
  await expect(page.getByLabel('Fallback API key')).toHaveValue('********');
  await page.getByRole('button', { name: 'Remove category software' }).click();
  await save.click();
  await expect(page.getByText('SABnzbd settings saved')).toBeVisible();
  const after = await savedSection();
  expect(after.fallback_api_key_set).toBe(true);
  expect(after.categories.map((c) => c.name)).toEqual(['anime', 'movies', 'tv', 'audio']);
});
