import type { Page } from '@playwright/test';
import { startFakeArr, type FakeArr } from '../support/fake-arr/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();
let cookie: string;
let radarr: FakeArr;
let sonarr: FakeArr;

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  radarr = await startFakeArr({ type: 'radarr', apiKey: 'radarr-key' });
  sonarr = await startFakeArr({ type: 'sonarr', apiKey: 'sonarr-key' });
});
test.afterAll(async () => {
  await radarr?.close();
  await sonarr?.close();
});

const card = (page: Page, label: string) => page.getByRole('article', { name: label });
const issues = (page: Page) => page.getByRole('alert').filter({ hasText: 'Please fix these issues' });
// the arrs' own form: the media servers' form below it has a Save Changes too
const save = (page: Page) =>
  page.getByRole('form', { name: 'Radarr/Sonarr Management' }).getByRole('button', { name: 'Save Changes' });

async function openArrs(page: Page) {
  await signIn(page, ADMIN);
  await page.goto('/config/arrs');
  await expect(page.getByRole('heading', { level: 2, name: 'Radarr/Sonarr Management' })).toBeVisible();
}

async function addInstance(page: Page, fields: { type?: string; name: string; url: string; key: string }) {
  await page.getByRole('button', { name: 'Add Instance' }).click();
  const m = page.getByRole('dialog');
  if (fields.type) await m.getByLabel('Type').selectOption(fields.type);
  await m.getByLabel('Name').fill(fields.name);
  await m.getByLabel('URL').fill(fields.url);
  await m.getByLabel('API key').fill(fields.key);
  await m.getByRole('button', { name: 'Add Instance' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test('add instances, test connections, validation blocks save, keys stay write-only', async ({ page }) => {
  await openArrs(page);
  await expect(page.getByText('No Radarr instances configured.')).toBeVisible();
  await expect(save(page)).toBeDisabled();
  await page.getByLabel('Enable Radarr/Sonarr management').check();

  // The modal: Radarr and enabled by default; Add needs a name, a URL and an API key.
  await page.getByRole('button', { name: 'Add Instance' }).click();
  const m = page.getByRole('dialog');
  await expect(m.getByLabel('Type')).toHaveValue('radarr');
  await expect(m.getByLabel('Enabled')).toBeChecked();
  const add = m.getByRole('button', { name: 'Add Instance' });
  await expect(add).toBeDisabled();
  await m.getByLabel('Name').fill('Main');
  await m.getByLabel('URL').fill(radarr.url);
  await expect(add).toBeDisabled();
  await m.getByLabel('API key').fill('wrong-key');
  await expect(add).toBeEnabled();
  await add.click();

  const movies = card(page, 'Radarr instance #1');
  await expect(movies).toContainText('Main');
  await movies.getByRole('button', { name: 'Test Connection' }).click();
  await expect(movies.getByRole('status')).toHaveText(/The API key was refused \(HTTP 401\)/);
  await movies.getByLabel('API key').fill('radarr-key');
  await movies.getByRole('button', { name: 'Test Connection' }).click();
  await expect(movies.getByRole('status')).toHaveText(/Connection successful/);
  // The message clears itself after 5 s.
  await expect(movies.getByRole('status')).toHaveCount(0);

  // A Sonarr instance with the same name: the issue is listed and Save is blocked.
  await addInstance(page, { type: 'sonarr', name: 'Main', url: sonarr.url, key: 'sonarr-key' });
  const tv = card(page, 'Sonarr instance #1');
  await expect(issues(page)).toContainText('Instance name "Main" is used multiple times');
  await expect(save(page)).toBeDisabled();
  await tv.getByLabel('Name').fill('Shows');
  await tv.getByLabel('URL').fill('');
  await expect(issues(page)).toHaveText(/Sonarr instance #1: URL is required/);
  await tv.getByLabel('URL').fill('not a url');
  await expect(issues(page)).toHaveText(/Sonarr instance #1: Invalid URL format/);
  await tv.getByLabel('URL').fill(sonarr.url);
  await expect(issues(page)).toHaveCount(0);
  // Testing the wrong application says so (a Radarr that takes this key).
  const other = await startFakeArr({ type: 'radarr', apiKey: 'sonarr-key' });
  await tv.getByLabel('URL').fill(other.url);
  await tv.getByRole('button', { name: 'Test Connection' }).click();
  await expect(tv.getByRole('status')).toHaveText(/This is Radarr, not Sonarr/);
  await other.close();
  await tv.getByLabel('URL').fill(sonarr.url);

  await save(page).click();
  await expect(page.locator('.toast').filter({ hasText: 'Radarr/Sonarr settings saved' })).toBeVisible();
  await expect(save(page)).toBeDisabled();

  const cfg = await apiCall<{ arrs: Record<string, Record<string, unknown>[]> }>(
    spool().baseURL,
    'GET',
    '/api/config',
    undefined,
    cookie,
  );
  expect(cfg.body.data.arrs.radarr_instances).toEqual([
    { name: 'Main', type: 'radarr', url: radarr.url, enabled: true, root_folder: '', api_key_set: true },
  ]);
  expect(JSON.stringify(cfg.body)).not.toContain('radarr-key');

  // After a reload the keys are not in the form; a test uses the stored one.
  await page.reload();
  const reloaded = card(page, 'Sonarr instance #1');
  await expect(reloaded.getByLabel('Name')).toHaveValue('Shows');
  await expect(reloaded.getByLabel('API key')).toHaveValue('');
  await expect(reloaded).toContainText('A key is stored. Leave blank to keep it.');
  await reloaded.getByRole('button', { name: 'Test Connection' }).click();
  await expect(reloaded.getByRole('status')).toHaveText(/Connection successful/);
  expect(sonarr.calls.at(-1)?.apiKey).toBe('sonarr-key');

  // Without a URL there is nothing to test.
  await reloaded.getByLabel('URL').fill('');
  await reloaded.getByRole('button', { name: 'Test Connection' }).click();
  await expect(reloaded.getByRole('status')).toHaveText(/URL and API key are required/);
});

test('disabling an instance and removing one are saved', async ({ page }) => {
  await openArrs(page);
  const movies = card(page, 'Radarr instance #1');
  await movies.getByRole('switch', { name: 'Enabled' }).uncheck();
  await expect(movies).toContainText('Disabled');
  await page.getByRole('button', { name: 'Remove Sonarr instance #1' }).click();
  await expect(page.getByText('No Sonarr instances configured.')).toBeVisible();
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  await save(page).click();
  await expect(page.locator('.toast').filter({ hasText: 'Radarr/Sonarr settings saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByText('No Sonarr instances configured.')).toBeVisible();
  await expect(card(page, 'Radarr instance #1').getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
  expect(radarr.unexpected).toEqual([]);
  expect(sonarr.unexpected).toEqual([]);
});
