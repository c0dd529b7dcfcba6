import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';
import type { ConfigDoc } from './support/spool.js';

// Named API keys in the console (docs/security.md): created with a name and scope, the secret shown once, listed
// with their last use, revoked; the revoked key is refused at once.
const spool = useSpool();

test.beforeAll(async () => {
  await createAdmin(spool());
});

test('System: create a metrics key, see it once, use it, see its last use, revoke it', async ({ page, request }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const form = page.getByRole('form', { name: 'New API key' });
  await form.getByLabel('Name').fill('Prometheus');
  await form.getByLabel('Scope').selectOption('metrics');
  await form.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByLabel('New key secret').textContent()) ?? '';
  expect(secret).toMatch(/^spk_[0-9a-f]{64}$/);
  const table = page.getByRole('table', { name: 'API keys' });
  await expect(table.getByRole('row', { name: /Prometheus metrics never/ })).toBeVisible();

  const base = new URL(page.url()).origin;
  expect((await request.get(`${base}/metrics`, { headers: { 'x-api-key': secret } })).status()).toBe(200);
  await page.reload();
  await expect(table.getByRole('row', { name: /Prometheus metrics .* from 127\.0\.0\.1/ })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  await table.getByRole('button', { name: 'Revoke Prometheus' }).click();
  await expect(table.getByRole('row', { name: /Prometheus/ })).toHaveCount(0);
  expect((await request.get(`${base}/metrics`, { headers: { 'x-api-key': secret } })).status()).toBe(401);
});

test('Authentication: the forward-auth settings are saved to the file', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/auth');
  await page.getByLabel('Trusted proxies').fill('172.18.0.2');
  await page.getByLabel('Forward auth user header').fill('Remote-User');
  await page.getByLabel('Forward auth groups header').fill('Remote-Groups');
  await page.getByLabel('Administrator groups').fill('admins\nops');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Authentication settings saved')).toBeVisible();
  const saved = parse(readFileSync(spool().configPath, 'utf8')) as ConfigDoc;
  expect(saved.auth).toMatchObject({
    trusted_proxies: ['172.18.0.2'],
    forward_user_header: 'Remote-User',
    forward_groups_header: 'Remote-Groups',
    forward_admin_groups: ['admins', 'ops'],
  });
});
