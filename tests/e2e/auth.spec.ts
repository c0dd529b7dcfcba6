import { ADMIN, expect, test, useSpool } from './support/fixtures.js';

const spool = useSpool();

test('first visit asks for the admin account and validates every field', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Create Admin Account' })).toBeVisible();
  await expect(page.getByText('No users found - please create an admin account')).toBeVisible();
  await expect(page.getByText('The first user to register gets administrator privileges.')).toBeVisible();

  await page.getByLabel('Username').fill('al');
  await page.getByLabel('Email (optional)').fill('not-an-address');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create Admin Account' }).click();
  await expect(page.getByText('Username must be at least 3 characters long')).toBeVisible();
  await expect(page.getByText('Email address is invalid')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters long')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Email (optional)').fill('admin@example.org');
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Confirm password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create Admin Account' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('button', { name: ADMIN.username }).click();
  await expect(page.locator('#user-menu-panel').getByText('Admin', { exact: true })).toBeVisible();
  await expect(page.getByText('admin@example.org')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage Users' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Configuration' })).toBeVisible();
});

test('logout, then sign-in shows its busy and failure states', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await page.getByRole('button', { name: ADMIN.username }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Spool' })).toBeVisible();
  // The session is gone on the server too: the protected pages send us back.
  await page.goto('/queue');
  await expect(page).toHaveURL(/\/login$/);

  const submit = page.getByRole('button', { name: 'Sign in' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Username or email').fill(ADMIN.username);
  await expect(submit).toBeDisabled();
  await page.getByLabel('Password').fill('wrong-password');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('alert').getByText('Login Failed')).toBeVisible();

  // Hold the login answer so the busy state can be seen, then let it through.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/auth/login', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
  release();
  // Signing in returns to the page that asked for it.
  await expect(page).toHaveURL(/\/queue$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Queue Management' })).toBeVisible();
});

test('the dashboard matches what the statistics calls answer', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  const cookies = await page.context().cookies();
  const headers = { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
  const queue = await request.get(`${spool().baseURL}/api/queue/stats`, { headers });
  const health = await request.get(`${spool().baseURL}/api/health/stats`, { headers });
  // The real server answers both (their failures are dashboard.spec.ts's fault-injection tests): the signed-in
  // Dashboard shows both charts and no error.
  expect([queue.status(), health.status()]).toEqual([200, 200]);
  await expect(page.getByRole('heading', { name: 'Queue Distribution' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'File Health Status' })).toBeVisible();
  await expect(page.getByText('Dashboard unavailable')).toHaveCount(0);
  await expect(page.getByText(/Failed to load/)).toHaveCount(0);
  const q = (await queue.json()).data;
  const shown = q.total_processing + q.total_completed + q.total_failed;
  const pending = Math.max(0, q.total_queued - shown);
  await expect(
    page.getByText(`${pending} pending, ${q.total_processing} processing, ${q.total_failed} failed`),
  ).toBeVisible();
  // The footer always shows status and version; badges read 0 (hidden) when the counts are unavailable.
  await expect(page.getByRole('contentinfo').getByText('Online')).toBeVisible();
  await expect(page.getByRole('contentinfo').getByText('Spool v0.0.1-alpha')).toBeVisible();
});
