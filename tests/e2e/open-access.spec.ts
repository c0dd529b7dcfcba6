import { expect, test, useSpool } from './support/fixtures.js';

// The config file says login is not required before the server ever starts.
useSpool({ config: { auth: { login_required: false } } });

test('with login_required false nobody signs in and everything is open', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Open access')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Configuration' })).toBeVisible();

  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  await expect(page.getByText('No users found.')).toBeVisible();

  await page.goto('/config');
  await expect(page).toHaveURL(/\/config\/webdav$/);
  await page.getByRole('link', { name: 'Authentication' }).click();
  await expect(page.getByRole('switch', { name: 'Require login' })).not.toBeChecked();
});
