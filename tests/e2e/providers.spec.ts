import type { Page } from '@playwright/test';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { ensureInnTls } from '../support/inn/tls.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();
let inn: InnServer;
let cookie: string;

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  inn = await ensureInn();
});

const modal = (page: Page) => page.getByRole('dialog');
const list = (page: Page) => page.getByRole('list', { name: 'NNTP providers in priority order' });
const toastWith = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text }).last();

async function openProviders(page: Page) {
  await signIn(page, ADMIN);
  await page.goto('/config/providers');
  await expect(page.getByRole('heading', { level: 2, name: 'NNTP Providers' })).toBeVisible();
}

test('add: defaults, Insecure TLS only with TLS, test required, wrong password refused, test reset on change', async ({
  page,
}) => {
  await openProviders(page);
  await expect(page.getByText('No providers configured yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add Provider' }).click();
  const m = modal(page);
  await expect(m.getByRole('heading', { name: 'Add Provider' })).toBeVisible();
  // The screen's stylesheet refines the shared dialog (loaded first): the form gets its wider two-column box.
  expect((await m.boundingBox())!.width).toBeGreaterThan(500);
  await expect(m.getByLabel('Port')).toHaveValue('119');
  await expect(m.getByLabel('Max connections')).toHaveValue('10');
  await expect(m.getByLabel(/Insecure TLS/)).toHaveCount(0);
  await m.getByLabel('Use TLS').check();
  await expect(m.getByLabel(/Insecure TLS/)).toBeVisible();
  await m.getByLabel('Use TLS').uncheck();
  await expect(m.getByLabel(/Insecure TLS/)).toHaveCount(0);

  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toastWith(page, 'Missing Required Fields')).toContainText(
    'Please fill in all required fields before testing connection',
  );

  await m.getByLabel('Host').fill(inn.host);
  await m.getByLabel('Port').fill(String(inn.port));
  await m.getByLabel('Username').fill(inn.username);
  await m.getByLabel('Password').fill('not-the-password');
  await m.getByRole('button', { name: 'Add Provider' }).click();
  await expect(toastWith(page, 'Connection Test Required')).toContainText(
    'Please test the connection successfully before saving',
  );

  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toContainText('Authentication failed');
  await m.getByLabel('Password').fill(inn.password);
  await expect(m.getByRole('status')).toHaveCount(0); // a changed password resets the result
  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toHaveText(/Connection successful/);
  await m.getByLabel('Port').fill('1');
  await expect(m.getByRole('status')).toHaveCount(0);
  await m.getByLabel('Port').fill(String(inn.port));
  await m.getByRole('button', { name: 'Add Provider' }).click();
  await expect(toastWith(page, 'Connection Test Required')).toBeVisible();
  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toHaveText(/Connection successful/);
  await m.getByLabel('Max connections').fill('4');
  await m.getByRole('button', { name: 'Add Provider' }).click();
  await expect(modal(page)).toHaveCount(0);
  await expect(toastWith(page, 'Provider added')).toBeVisible();

  const row = list(page).getByRole('listitem');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${inn.host}:${inn.port}`);
  await expect(row).toContainText(`${inn.username} · 4 connections`);
  await page.reload();
  await expect(list(page).getByRole('listitem')).toContainText(`${inn.host}:${inn.port}`);
});

test('edit keeps the saved password: test without typing it, PUT carries only the changed field', async ({ page }) => {
  await openProviders(page);
  const label = `${inn.host}:${inn.port}`;
  await page.getByRole('button', { name: `Edit ${label}` }).click();
  const m = modal(page);
  await expect(m.getByLabel('Password')).toHaveValue('');
  await expect(m.getByLabel('Password')).toHaveAttribute('placeholder', 'Leave empty to keep the current password');

  const testCall = page.waitForRequest((r) => r.url().endsWith('/api/providers/test'));
  await m.getByRole('button', { name: 'Test Connection' }).click();
  expect((await testCall).postDataJSON()).toMatchObject({ password: '', id: expect.any(String) });
  await expect(m.getByRole('status')).toHaveText(/Connection successful/);

  await m.getByLabel('Max connections').fill('3');
  await m.getByLabel('Backup provider').check();
  const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/api\/providers\/[^/]+$/.test(r.url()));
  await m.getByRole('button', { name: 'Save Provider' }).click();
  expect((await put).postDataJSON()).toEqual({ max_connections: 3, is_backup_provider: true });
  await expect(toastWith(page, 'Provider updated')).toBeVisible();
  const row = list(page).getByRole('listitem');
  await expect(row).toContainText('3 connections');
  await expect(row).toContainText('Backup');

  // The saved password still authenticates (the server tests with it when the form sends none).
  const providers = await apiCall<{ providers: { id: string; password_set: boolean }[] }>(
    spool().baseURL,
    'GET',
    '/api/config',
    undefined,
    cookie,
  );
  const saved = providers.body.data.providers[0]!;
  expect(saved.password_set).toBe(true);
  const check = await apiCall<{ success: boolean }>(
    spool().baseURL,
    'POST',
    '/api/providers/test',
    { host: inn.host, port: inn.port, username: inn.username, password: '', id: saved.id },
    cookie,
  );
  expect(check.body.data.success).toBe(true);

  // Edit mode counts as tested until a connection field changes.
  await page.getByRole('button', { name: `Edit ${label}` }).click();
  await modal(page).getByLabel('Username').fill('someone-else');
  await modal(page).getByRole('button', { name: 'Save Provider' }).click();
  await expect(toastWith(page, 'Connection Test Required')).toBeVisible();
  await modal(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(modal(page)).toHaveCount(0);
});

test('enable toggle persists', async ({ page }) => {
  await openProviders(page);
  const toggle = page.getByRole('switch', { name: `Enabled: ${inn.host}:${inn.port}` });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(toastWith(page, 'Provider disabled')).toBeVisible();
  await page.reload();
  await expect(toggle).not.toBeChecked();
  await expect(list(page)).toContainText('Disabled');
  await toggle.check();
  await expect(toastWith(page, 'Provider enabled')).toBeVisible();
  await page.reload();
  await expect(toggle).toBeChecked();
});

test('reorder with the keyboard buttons and by drag and drop; the order persists', async ({ page }) => {
  const second = await apiCall(
    spool().baseURL,
    'POST',
    '/api/providers',
    { host: 'localhost', port: inn.port, username: inn.username, password: inn.password, max_connections: 2 },
    cookie,
  );
  expect(second.status).toBe(200);
  const first = `${inn.host}:${inn.port}`;
  const other = `localhost:${inn.port}`;
  await openProviders(page);
  const rows = list(page).getByRole('listitem');
  await expect(rows.nth(0)).toContainText(first);
  await expect(rows.nth(1)).toContainText(other);

  const reorder = page.waitForRequest((r) => r.url().endsWith('/api/providers/reorder'));
  await page.getByRole('button', { name: `Move up: ${other}` }).click();
  const body = (await reorder).postDataJSON() as { provider_ids: string[] };
  expect(body.provider_ids).toHaveLength(2);
  await expect(toastWith(page, 'Provider order saved')).toBeVisible();
  await page.reload();
  await expect(rows.nth(0)).toContainText(other);
  await expect(rows.nth(1)).toContainText(first);

  const dragged = page.waitForResponse((r) => r.url().endsWith('/api/providers/reorder'));
  await rows.nth(1).dragTo(rows.nth(0));
  await expect(rows.nth(0)).toContainText(first);
  expect((await dragged).status()).toBe(200);
  await page.reload();
  await expect(rows.nth(0)).toContainText(first);
  await expect(rows.nth(1)).toContainText(other);
});

test('delete asks first, then removes the provider', async ({ page }) => {
  await openProviders(page);
  const other = `localhost:${inn.port}`;
  await page.getByRole('button', { name: `Delete ${other}` }).click();
  await expect(modal(page)).toContainText(`Are you sure you want to delete "${other}"? This action cannot be undone.`);
  await modal(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(list(page).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: `Delete ${other}` }).click();
  await modal(page).getByRole('button', { name: 'Delete' }).click();
  await expect(toastWith(page, 'Provider deleted')).toBeVisible();
  await page.reload();
  await expect(list(page).getByRole('listitem')).toHaveCount(1);
  await expect(list(page)).not.toContainText(other);
});

test('a TLS provider with a private CA: refused without it, a bad paste is a field error, saved with it', async ({
  page,
}) => {
  const innTls = await ensureInnTls(inn);
  await openProviders(page);
  await page.getByRole('button', { name: 'Add Provider' }).click();
  const m = modal(page);
  await expect(m.getByLabel(/CA certificate/)).toHaveCount(0);
  await m.getByLabel('Host').fill(innTls.host);
  await m.getByLabel('Port').fill(String(innTls.port));
  await m.getByLabel('Username').fill(inn.username);
  await m.getByLabel('Password').fill(inn.password);
  await m.getByLabel('Use TLS').check();
  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toContainText('not trusted');

  const ca = m.getByLabel(/CA certificate/);
  await ca.fill('not a certificate');
  await expect(m.getByText(/^Not a PEM certificate/)).toBeVisible();
  await expect(ca).toHaveAttribute('aria-invalid', 'true');
  await ca.fill(innTls.caCert);
  await expect(m.getByText(/^Not a PEM certificate/)).toHaveCount(0);
  await m.getByRole('button', { name: 'Test Connection' }).click();
  await expect(m.getByRole('status')).toHaveText(/Connection successful/);
  await m.getByRole('button', { name: 'Add Provider' }).click();
  await expect(toastWith(page, 'Provider added')).toBeVisible();

  const row = list(page)
    .getByRole('listitem')
    .filter({ hasText: `${innTls.host}:${innTls.port}` });
  await expect(row).toContainText('CA certificate: set');
  await expect(
    list(page)
      .getByRole('listitem')
      .filter({ hasText: `${inn.host}:${inn.port}` }),
  ).not.toContainText('CA certificate');
  await page.reload();
  await expect(row).toContainText('Private CA');
});
