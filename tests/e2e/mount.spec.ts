import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort } from '../support/free-port.js';
import { createAdmin, expect, test, useSpool } from './support/fixtures.js';
import { apiCall } from './support/spool.js';
import { waitUntil } from '../support/wait.js';

// Configuration → Mount & RClone against the real server: the real FUSE mount is started and stopped from the
// page, and the RC test talks to a real `rclone rcd` on loopback.
const spool = useSpool();
let cookie = '';
let mountDir = '';
let rcd: ChildProcess | undefined;
let rcPort = 0;
const RC_USER = 'rc-user';
const RC_PASS = 'rc-secret-pass';

/** Starts `rclone rcd` with auth on a free loopback port and waits (bounded) until it answers core/version. */
async function startRcd(): Promise<void> {
  rcPort = await freePort();
  rcd = spawn(
    '/usr/bin/rclone',
    ['rcd', `--rc-addr=127.0.0.1:${rcPort}`, `--rc-user=${RC_USER}`, `--rc-pass=${RC_PASS}`, '--config=/dev/null'],
    { stdio: 'ignore' },
  );
  const auth = 'Basic ' + Buffer.from(`${RC_USER}:${RC_PASS}`).toString('base64');
  await waitUntil('rclone rcd to answer', async () => {
    if (rcd.exitCode !== null) throw new Error('rclone rcd did not start');
    return fetch(`http://127.0.0.1:${rcPort}/core/version`, { method: 'POST', headers: { Authorization: auth } })
      .then((r) => r.ok)
      .catch(() => false);
  });
}

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  mountDir = mkdtempSync(join(tmpdir(), 'spool-mount-e2e-'));
  await startRcd();
});

test.afterAll(async () => {
  if (rcd && rcd.exitCode === null) {
    const exited = new Promise((r) => rcd!.once('exit', r));
    rcd.kill('SIGTERM');
    await exited;
  }
  rmSync(mountDir, { recursive: true, force: true });
});

async function openSection(page: Page): Promise<void> {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool().baseURL }]);
  await page.goto('/config/rclone');
  await expect(page.getByRole('heading', { name: 'Mount & RClone' })).toBeVisible();
}

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === dir);
const toast = (page: Page, title: string) => page.locator('.toast__title', { hasText: title });

async function savedRclone() {
  const res = await apiCall<{ rclone: Record<string, unknown>; mount_path: string }>(
    spool().baseURL,
    'GET',
    '/api/config',
    undefined,
    cookie,
  );
  return res.body.data;
}

test('defaults of docs/console-contract.md §9 are shown; numbers fall back; Test Connection needs an RC URL or RC on', async ({
  page,
}) => {
  await openSection(page);
  await expect(page.getByLabel('RC port')).toHaveValue('5572');
  await expect(page.getByLabel('Transfers')).toHaveValue('4');
  await expect(page.getByLabel('VFS cache mode')).toHaveValue('full');
  await expect(page.getByLabel('Buffer size')).toHaveValue('32M');
  await expect(page.getByLabel('VFS cache max age')).toHaveValue('504h');
  await expect(page.getByLabel('Mount path')).toHaveValue('/mnt/spool');
  // Transfers is an rclone-only setting, greyed out while the native driver mounts: pick the rclone backend.
  await expect(page.getByLabel('Transfers')).toBeDisabled();
  await page.getByLabel('Extra mount options').fill('backend=rclone');
  await page.getByLabel('Transfers').fill('');
  await expect(page.getByLabel('Transfers')).toHaveValue('4');
  await page.getByLabel('RC port').fill('');
  await expect(page.getByLabel('RC port')).toHaveValue('5572');
  await page.getByLabel('Transfers').fill('40');
  await expect(page.getByText('Must be a whole number from 1 to 32')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Mount Changes' })).toBeDisabled();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('button', { name: 'Test Connection' })).toBeDisabled();
});

test('RC test against a real rclone rcd: success, wrong password, unreachable', async ({ page }) => {
  await openSection(page);
  await page.getByLabel('RC URL').fill(`http://127.0.0.1:${rcPort}`);
  await page.getByLabel('RC username').fill(RC_USER);
  await page.getByLabel('RC password').fill(RC_PASS);
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/rclone/test'));
  await page.getByRole('button', { name: 'Test Connection' }).click();
  expect((await sent).postDataJSON()).toMatchObject({
    rc_url: `http://127.0.0.1:${rcPort}`,
    rc_user: RC_USER,
    rc_pass: RC_PASS,
    rc_enabled: false,
  });
  await expect(toast(page, 'Connection successful! RClone RC is accessible.')).toBeVisible();
  await expect(page.getByTestId('rc-test-result')).toHaveText('Connection successful! RClone RC is accessible.');

  await page.getByLabel('RC password').fill('wrong-password');
  await page.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toast(page, 'Connection failed')).toBeVisible();
  await expect(page.getByTestId('rc-test-result')).toContainText('HTTP 401');

  const dead = await freePort();
  await page.getByLabel('RC URL').fill(`http://127.0.0.1:${dead}`);
  await page.getByLabel('RC password').fill('');
  const blank = page.waitForRequest((r) => r.url().endsWith('/api/rclone/test'));
  await page.getByRole('button', { name: 'Test Connection' }).click();
  expect('rc_pass' in (await blank).postDataJSON(), 'a blank password is not sent').toBe(false);
  await expect(page.getByTestId('rc-test-result')).toHaveText(/ECONNREFUSED|connect|fetch failed/i);
});

test('RC toggle saves at once; a failed save reverts it with an error toast', async ({ page }) => {
  await openSection(page);
  const rcToggle = page.getByRole('switch', { name: 'Enable RC' });
  // The server refuses an RC URL it cannot use: the toggle goes back off.
  await page.getByLabel('RC URL').fill('not a url');
  // click, not check(): the refusal may switch it back before check() could look at it.
  await rcToggle.click();
  await expect(toast(page, 'Failed to enable RC')).toBeVisible();
  await expect(rcToggle).not.toBeChecked();
  expect((await savedRclone()).rclone.rc_enabled).toBe(false);

  await page.getByLabel('RC URL').fill(`http://127.0.0.1:${rcPort}`);
  await page.getByLabel('RC password').fill(RC_PASS);
  await rcToggle.check();
  await expect(toast(page, 'RC enabled')).toBeVisible();
  const saved = await savedRclone();
  expect(saved.rclone).toMatchObject({ rc_enabled: true, rc_url: `http://127.0.0.1:${rcPort}`, rc_pass_set: true });
  await rcToggle.uncheck();
  await expect(toast(page, 'RC disabled')).toBeVisible();
  expect((await savedRclone()).rclone.rc_enabled).toBe(false);
});

test('mount: enable marks changed, save, start the real FUSE mount, disable & unmount', async ({ page }) => {
  await openSection(page);
  const mountToggle = page.getByRole('switch', { name: 'Enable mount' });
  const save = page.getByRole('button', { name: 'Save Mount Changes' });
  await expect(page.getByTestId('mount-status')).toHaveCount(0);
  await mountToggle.check();
  await expect(toast(page, 'Mount enabled')).toBeVisible();
  await expect(page.getByText('Please configure the mount path and save your changes')).toBeVisible();
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  // RC is auto-managed while the mount is enabled.
  await expect(page.getByRole('switch', { name: 'Enable RC' })).toBeDisabled();
  expect((await savedRclone()).rclone.mount_enabled).toBe(false);

  // The path's save answered (not only sent): the saved config is read below.
  const pathSaves = page.waitForResponse(
    (r) => r.url().endsWith('/api/config/system') && r.request().method() === 'PATCH',
  );
  await page.getByLabel('Mount path').fill(mountDir);
  await save.click();
  const pathSaved = await pathSaves;
  expect(pathSaved.request().postDataJSON()).toEqual({ section: 'system', config: { mount_path: mountDir } });
  expect(pathSaved.ok()).toBe(true);
  await expect(page.getByTestId('mount-status')).toContainText('Not Mounted');
  const saved = await savedRclone();
  expect(saved.rclone.mount_enabled).toBe(true);
  expect(saved.mount_path).toBe(mountDir);

  await page.getByRole('button', { name: 'Start Mount' }).click();
  await expect(toast(page, 'Mount started')).toBeVisible();
  await expect(page.getByTestId('mount-status').getByText('Mounted', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop Mount' })).toBeVisible();
  expect(mounted(mountDir)).toBe(true);

  // Fault injection: a stop that fails puts the toggle back on and says why.
  await page.route('**/api/rclone/mount/stop', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, error: { message: 'device busy' } }),
    }),
  );
  // While mounted the switch asks first and stays on until the answer: a click, not uncheck().
  await mountToggle.click();
  const confirm = page.getByRole('dialog', { name: 'Disable Mount' });
  await confirm.getByRole('button', { name: 'Disable & Unmount' }).click();
  await expect(toast(page, 'Failed to stop mount')).toBeVisible();
  await expect(mountToggle).toBeChecked();
  expect(mounted(mountDir)).toBe(true);
  await page.unroute('**/api/rclone/mount/stop');

  await mountToggle.click();
  await confirm.getByRole('button', { name: 'Disable & Unmount' }).click();
  await expect(toast(page, 'Mount disabled')).toBeVisible();
  await expect(mountToggle).not.toBeChecked();
  await expect(page.getByTestId('mount-status')).toHaveCount(0);
  expect((await savedRclone()).rclone.mount_enabled).toBe(false);
  await expect.poll(() => mounted(mountDir)).toBe(false);
});

test('Start Mount needs a mount path; Stop Mount stops a running mount', async ({ page }) => {
  const on = await apiCall(
    spool().baseURL,
    'PATCH',
    '/api/config/rclone',
    { section: 'rclone', config: { mount_enabled: true } },
    cookie,
  );
  expect(on.status).toBe(200);
  await openSection(page);
  await expect(page.getByTestId('mount-status')).toContainText('Not Mounted');
  await page.getByLabel('Mount path').fill('');
  await expect(page.getByRole('button', { name: 'Start Mount' })).toBeDisabled();
  await page.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('button', { name: 'Start Mount' }).click();
  await expect(page.getByRole('button', { name: 'Stop Mount' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop Mount' }).click();
  await expect(toast(page, 'Mount stopped')).toBeVisible();
  await expect(page.getByTestId('mount-status')).toContainText('Not Mounted');
  expect(mounted(mountDir)).toBe(false);
});
