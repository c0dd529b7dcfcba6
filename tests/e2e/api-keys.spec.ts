import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

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
