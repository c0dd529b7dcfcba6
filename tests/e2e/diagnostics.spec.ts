import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { readTar } from '../../appliance/backup/tar.js';
import { SUPPORT_BUNDLE_FILES } from '../../appliance/diagnostics/diagnostics.wire.js';
import { freePort } from '../support/free-port.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

// Configuration > System, the System health card (docs/diagnostics.md): the findings with their fixes, a provider
// nobody answers on reported as an error, and the support bundle downloaded without the provider's password.
const spool = useSpool();
let inn: InnServer;
const DEAD_PASSWORD = `dead-provider-secret-${Date.now()}`;
let innId = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const cookie = await createAdmin(spool());
  inn = await ensureInn();
  const add = (body: Record<string, unknown>) => apiCall(spool().baseURL, 'POST', '/api/providers', body, cookie);
  const innAdded = await add({
    host: inn.host,
    port: inn.port,
    username: inn.username,
    password: inn.password,
    max_connections: 4,
  });
  expect(innAdded.status, JSON.stringify(innAdded.body)).toBe(200);
  innId = (innAdded.body as { data: { id: string } }).data.id;
  const deadPort = await freePort();
  const dead = await add({
    host: '127.0.0.1',
    port: deadPort,
    username: 'u',
    password: DEAD_PASSWORD,
    max_connections: 1,
  });
  expect(dead.status, JSON.stringify(dead.body)).toBe(200);
});

test('System health: a provider nobody answers is an error with its fix; the clock agrees with INN', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const card = page.getByRole('region', { name: 'System health' });
  const findings = card.getByRole('list', { name: 'Findings' });
  const unreachable = findings.locator('li[data-check="provider_reach"]');
  await expect(unreachable).toHaveCount(1);
  await expect(unreachable).toHaveAttribute('data-level', 'error');
  await expect(unreachable).toContainText('could not be reached');
  await expect(unreachable).toContainText('Fix: Check the provider in Configuration > Providers');
  await expect(findings.locator('li[data-check="clock"]')).toContainText("Spool's clock agrees with provider");
  await expect(card.getByLabel('Health summary')).toContainText('1 errors');
  await card.getByRole('button', { name: 'Check again' }).click();
  await expect(card.getByRole('button', { name: 'Check again' })).toBeEnabled();
  await expect(unreachable).toHaveCount(1);
});

test('System health: the support bundle downloads as a tar.gz without the secrets', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const card = page.getByRole('region', { name: 'System health' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: 'Download support bundle' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^spool-support-.*\.tar\.gz$/);
  const entries = readTar(gunzipSync(readFileSync(await download.path())));
  expect(entries.map((e) => e.name).sort()).toEqual([...SUPPORT_BUNDLE_FILES].sort());
  for (const secret of [DEAD_PASSWORD, inn.password, ADMIN.password])
    expect(entries.some((e) => e.data.includes(secret))).toBe(false);
  const config = entries.find((e) => e.name === 'config.yaml')!.data.toString('utf8');
  expect(config).toContain('password_set: true');
});

test('Speed test: the card says the test stays within the provider’s max connections, the pool’s included', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const card = page.getByRole('region', { name: 'Speed test' });
  await card.getByRole('combobox').selectOption(innId);
  await expect(card.getByLabel('Speed test limit')).toContainText(
    "The test opens up to the provider's max connections (4)",
  );
  await expect(card.getByLabel('Speed test limit')).toContainText("the account's connection limit is never exceeded");
});
