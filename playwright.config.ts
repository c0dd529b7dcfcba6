import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests of the built console against the real server (`npm run build` first; `npm test -- e2e` does it).
 * Each spec file starts its own server with a fresh data dir (tests/e2e/support/spool.ts), so files are
 * independent; Chromium comes from Debian, never from `npx playwright install`.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // No wall-clock bound a busy machine could hit: a test waits for what it needs; these caps only stop a hung run
  // (the same as the integration tier's: tests/support/wait.ts, scripts/test.mjs).
  timeout: 300_000,
  expect: { timeout: 240_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
