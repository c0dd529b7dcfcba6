import { expect, test, useSpool } from './support/fixtures.js';
import type { Page } from '@playwright/test';

useSpool();

/** Waits until the service worker controls the page (after the first load it must be claimed by a reload). */
async function waitForServiceWorker(page: Page): Promise<void> {
  // Page-side code as strings: this file is type-checked for Node, without the DOM library.
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  if (!(await page.evaluate('!!navigator.serviceWorker.controller'))) {
    await page.reload();
    await page.waitForFunction('!!navigator.serviceWorker.controller');
  }
}

test('manifest and icons make the console installable', async ({ request, baseURL }) => {
  const manifest = await request.get(`${baseURL}/manifest.webmanifest`);
  expect(manifest.ok()).toBe(true);
  const body = (await manifest.json()) as {
    name: string;
    short_name: string;
    icons: { src: string; sizes: string; purpose?: string }[];
  };
  expect(body.name).toBe('Spool');
  expect(body.short_name).toBe('Spool');
  expect(body.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of body.icons) {
    const png = await request.get(`${baseURL}${icon.src}`);
    expect(png.headers()['content-type']).toContain('image/png');
    const bytes = await png.body();
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    const [w] = icon.sizes.split('x').map(Number);
    expect(bytes.readUInt32BE(16)).toBe(w); // IHDR width
  }
});

test('first load shows no update prompt; the worker never answers server routes', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Create Admin Account' })).toBeVisible();
  await waitForServiceWorker(page);
  await expect(page.getByText('A new version is available')).toHaveCount(0);

  // With the worker in control, navigations to server paths still reach the server, not the cached shell.
  const ping = await page.goto('/ping');
  expect(ping?.headers()['content-type']).toContain('application/json');
  expect(await ping?.json()).toEqual({ status: 'OK' });
  const api = await page.goto('/api/auth/config');
  expect(((await api?.json()) as { success: boolean }).success).toBe(true);
});

test('the shell loads offline from the service worker', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await context.setOffline(true);
  try {
    const res = await page.reload();
    expect(res?.fromServiceWorker()).toBe(true);
    // The console itself renders, and says plainly that the server is out of reach.
    await expect(page.getByText('Connection to server failed.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry connection' })).toBeVisible();
    // Deep links are answered by the shell too.
    const deep = await page.goto('/config/webdav');
    expect(deep?.fromServiceWorker()).toBe(true);
    await expect(page.getByText('Connection to server failed.')).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
  await page.getByRole('button', { name: 'Retry connection' }).click();
  await expect(page.getByRole('heading', { name: 'Create Admin Account' })).toBeVisible();
});
