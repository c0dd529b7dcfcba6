import { apiCall } from './support/spool.js';
import { ADMIN, MEMBER, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();

test.beforeAll(async () => {
  // The admin opens registration (Authentication section), then a second, ordinary user registers via the API.
  const cookie = await createAdmin(spool());
  const opened = await apiCall(
    spool().baseURL,
    'PATCH',
    '/api/config/auth',
    { section: 'auth', config: { registration_enabled: true } },
    cookie,
  );
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const member = await apiCall(spool().baseURL, 'POST', '/api/auth/register', { ...MEMBER, email: 'bob@example.org' });
  expect(member.status, JSON.stringify(member.body)).toBe(200);
});

test('an ordinary user sees Access Denied on admin pages and no admin navigation', async ({ page }) => {
  await signIn(page, MEMBER);
  await expect(page.getByRole('link', { name: 'Configuration' })).toHaveCount(0);
  await page.getByRole('button', { name: `${MEMBER.username} account menu` }).click();
  await expect(page.getByRole('link', { name: 'Manage Users' })).toHaveCount(0);
  await expect(page.locator('#user-menu-panel').getByText('via local')).toBeVisible();

  for (const path of ['/admin', '/config/webdav']) {
    await page.goto(path);
    await expect(page.getByText('You need administrator privileges to access this page.')).toBeVisible();
    await expect(page.locator('.access-denied').getByText(MEMBER.username)).toBeVisible();
  }
});

test('the sign-in page offers registration once an admin enabled it', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Need to create an account? Register' }).click();
  await expect(page.getByLabel('Confirm password')).toBeVisible();
  // docs/console-contract.md §2: the registration submit always reads 'Create Admin Account', not only for the first user.
  await expect(page.getByRole('button', { name: 'Create Admin Account', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Already have an account? Sign in' }).click();
  await expect(page.getByLabel('Username or email')).toBeVisible();
});

test('an admin grants and revokes admin rights', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.getByRole('button', { name: `${ADMIN.username} account menu` }).click();
  await page.getByRole('link', { name: 'Manage Users' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();

  const bob = page.locator('.user-row', { hasText: 'bob@example.org' });
  await expect(bob.getByText('Admin', { exact: true })).toHaveCount(0);
  await bob.getByRole('button', { name: `Make Admin: ${MEMBER.username}` }).click();
  await expect(bob.getByRole('button', { name: `Remove Admin: ${MEMBER.username}` })).toBeVisible();
  await expect(bob.getByText('Admin', { exact: true })).toBeVisible();

  // It is stored, not just drawn: a fresh load shows the same.
  await page.reload();
  await expect(bob.getByRole('button', { name: `Remove Admin: ${MEMBER.username}` })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await bob.getByRole('button', { name: `Remove Admin: ${MEMBER.username}` }).click();
  await expect(bob.getByRole('button', { name: `Make Admin: ${MEMBER.username}` })).toBeVisible();
});
