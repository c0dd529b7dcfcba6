import { editConfigFile } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();

const MENU = [
  'WebDAV Server',
  'Authentication',
  'Mount & RClone',
  'Metadata',
  'Streaming & Downloads',
  'Health Monitoring',
  'Import Processing',
  'NNTP Providers',
  'SABnzbd API',
  'Radarr/Sonarr Management',
  'System',
];

test.beforeAll(async () => {
  await createAdmin(spool());
});

test('routes: /config and unknown sections land on webdav; the menu keeps the contract order', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config');
  await expect(page).toHaveURL(/\/config\/webdav$/);
  const menu = page.getByRole('navigation', { name: 'Configuration sections' });
  await expect(menu.getByRole('link')).toHaveText(MENU);
  // Long titles wrap inside the side column instead of running into the link's padding and the menu's border.
  const overflowing = await menu.getByRole('link').evaluateAll((links) =>
    links
      .filter((a) => {
        const text = document.createRange();
        text.selectNodeContents(a);
        const inner = a.getBoundingClientRect().right - parseFloat(getComputedStyle(a).paddingRight);
        return text.getBoundingClientRect().right > inner + 0.5;
      })
      .map((a) => a.textContent),
  );
  expect(overflowing).toEqual([]);
  // Inputs side by side line up even when only one of them has a hint under it.
  const heights = await Promise.all(['Port', 'Username'].map(async (l) => (await page.getByLabel(l).boundingBox())!));
  expect(heights[1].height).toBe(heights[0].height);
  expect(heights[1].y).toBe(heights[0].y);
  await expect(page.getByRole('link', { name: 'Configure RClone Mount' })).toHaveAttribute('href', '/config/rclone');
  await page.goto('/config/no-such-section');
  await expect(page).toHaveURL(/\/config\/webdav$/);
  await page.goto('/config/sabnzbd');
  await expect(page.getByRole('heading', { name: 'SABnzbd API' })).toBeVisible();
});

test('save marks dirty, validates, falls back, and raises the restart banner', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/import');
  const workers = page.getByLabel('Max processor workers');
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(workers).toHaveValue('2');
  await expect(save).toBeDisabled();

  await workers.fill('');
  await expect(workers).toHaveValue('1'); // docs/console-contract.md §5 fallback for invalid input
  await workers.fill('25');
  await expect(page.getByText('Must be a whole number from 1 to 20')).toBeVisible();
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  await expect(save).toBeDisabled();

  await workers.fill('4');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Import settings saved')).toBeVisible();
  await expect(page.getByText('Unsaved Changes')).toHaveCount(0);
  await expect(save).toBeDisabled();

  const banner = page.getByRole('status').filter({ hasText: 'Server restart required' });
  await expect(banner).toContainText('import.max_processor_workers');
  await banner.getByRole('button', { name: 'Dismiss restart notice' }).click();
  await expect(page.getByText('Server restart required')).toHaveCount(0);
  // Dismissed for this browser session: a page load does not bring it back.
  await page.reload();
  await expect(workers).toHaveValue('4');
  await expect(page.getByText('Server restart required')).toHaveCount(0);
});

test('Reload reads hand edits from the file', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/streaming');
  const cache = page.getByLabel('Max cache size (MB)');
  await expect(cache).toHaveValue('128');
  editConfigFile(spool().configPath, (c) => {
    c.streaming!.max_cache_size_mb = 77;
  });
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByText('Configuration reloaded successfully from file')).toBeVisible();
  await expect(cache).toHaveValue('77');
});

test('a bad save answers with an Update Failed toast and keeps the form', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/metadata');
  const root = page.getByLabel('Root path');
  await root.fill('   ');
  await expect(page.getByText('Root path is required')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  // The server is the last word: refuse this save there and show its message.
  await page.route('**/api/config/metadata', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        error: {
          message: 'Validation failed',
          details: [{ field: 'metadata.root_path', message: 'Must be writable' }],
        },
      }),
    }),
  );
  await root.fill('/srv/elsewhere');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Update Failed' });
  await expect(toast).toContainText('metadata.root_path: Must be writable');
  await expect(root).toHaveValue('/srv/elsewhere');
});

test('Restart Server asks first, restarts, reloads the page and clears the banner', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/webdav');
  const port = page.getByLabel('Port');
  const original = await port.inputValue();
  await port.fill(String(Number(original) + 1));
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Server restart required' })).toContainText('webdav.port');

  await page.getByRole('button', { name: 'Restart Server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restart Server' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Restart Server' }).click();
  // no bound of its own: the test's timeout stops a hung run
  const reloaded = page.waitForEvent('load', { timeout: 0 });
  await dialog.getByRole('button', { name: 'Restart Server' }).click();
  await expect(page.getByText('Server restart initiated. Page will reload shortly...')).toBeVisible();
  await reloaded;
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration' })).toBeVisible();
  await expect(page.getByText('Server restart required')).toHaveCount(0);
  await expect(page.getByLabel('Port')).toHaveValue(String(Number(original) + 1));
});
