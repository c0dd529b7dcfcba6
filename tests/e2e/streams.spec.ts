import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { buildNzb } from '../support/inn/poster.js';
import { ensureInn } from '../support/inn/server.js';
import { innProvider } from '../support/inn/provider.js';
import { makeMedia } from '../support/media/ffmpeg.js';
import { ADMIN, expect, test } from './support/fixtures.js';
import { importNzb } from './support/imports.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';

// The Streams screen against the real server: a real curl over WebDAV and a real dd through the real FUSE mount
// read a file posted to a real INN; the screen shows each while it reads, with its class and rate, then in history.
let spool: Spool | undefined;
let cookie = '';
let mountDir = '';
let file = '';
let innHost = '';
const SIZE = 24 * 1024 * 1024;
const DAV = { user: 'dav', password: 'dav-secret' };
const children: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === dir);

test.beforeAll(async () => {
  const inn = await ensureInn();
  innHost = inn.host;
  mountDir = mkdtempSync(join(tmpdir(), 'spool-streams-e2e-'));
  spool = await startSpool({
    config: {
      providers: [innProvider(inn)],
      webdav: DAV,
      mount_path: mountDir,
      rclone: { mount_enabled: true },
      import: { queue_processing_interval_seconds: 1, allowed_file_extensions: ['.mkv'] },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;
  // a real Matroska file of 60 s (ffmpeg) padded to SIZE: the import reads its duration, the screen its bitrate
  const mkv = makeMedia('mkv', 60);
  const movie = await inn.postFile('Streamed.Movie.mkv', Buffer.concat([mkv, randomBytes(SIZE - mkv.length)]), {
    articleSize: 256_000,
  });
  const job = await importNzb(
    spool.baseURL,
    cookie,
    'Streamed.Movie.nzb',
    buildNzb([movie], inn.group, 'Spool Test <poster@spool.test>'),
  );
  file = `${job}/Streamed.Movie.mkv`;
  await expect.poll(() => mounted(mountDir)).toBe(true);
});

test.afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await spool?.stop();
  rmSync(mountDir, { recursive: true, force: true });
});

async function openStreams(page: Page): Promise<void> {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
  await page.goto('/streams');
  await expect(page.getByRole('heading', { name: 'Streams', level: 2 })).toBeVisible();
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => c.once('exit', (code) => r(code)));

test('a slow curl over WebDAV shows as a player with its rate, then ends and moves to history', async ({ page }) => {
  await openStreams(page);
  await expect(page.getByText('Nothing is being read')).toBeVisible();
  const url = `${spool!.baseURL}/webdav${file}`;
  const curl = spawn(
    'curl',
    ['-sf', '-u', `${DAV.user}:${DAV.password}`, '--limit-rate', '2M', '-o', '/dev/null', url],
    {
      stdio: 'ignore',
    },
  );
  children.push(curl);
  const done = exited(curl);

  const open = page.locator('.streams-table--open tbody tr', { hasText: 'Streamed.Movie.mkv' });
  await expect(open).toBeVisible();
  await expect(open.locator('.col-front')).toHaveText('WebDAV');
  await expect(open.locator('.col-class')).toContainText('player');
  await expect(open.locator('.col-client')).toContainText('curl/');
  await expect(open.locator('.col-rate')).toContainText(/[KM]B\/s/);
  // 24 MiB over 60 s: the media bitrate beside the delivered rate
  await expect(open.locator('.col-rate')).toContainText(/of 4[01]\d\.\d KB\/s/);
  // the provider that served it (INN, by its host) and the bytes the pool fetched for players today
  await expect(open.locator('.col-serving')).toContainText(innHost);
  const fetched = page.locator('dl[aria-label="Bytes fetched from Usenet today by class"]');
  await expect(fetched.locator('div', { hasText: 'Player reads fetched today' }).getByRole('definition')).toHaveText(
    /\d(\.\d)? [KM]B/,
  );

  expect(await done).toBe(0);
  await expect(open).toHaveCount(0);
  const ended = page.locator('.streams-table--ended tbody tr', { hasText: 'curl/' });
  await expect(ended.locator('.col-reason')).toHaveText('done');
  await expect(ended.locator('.col-served')).toHaveText('24.0 MB');
  await expect(page.getByRole('definition').first()).not.toHaveText('–');
});

test('a dd through the FUSE mount shows with front FUSE and its process, and an admin can end it', async ({ page }) => {
  await openStreams(page);
  // dd writes into a pipe this test drains slowly: dd blocks, so its reads of the mount are paced
  const dd = spawn('dd', [`if=${mountDir}${file}`, 'bs=64k', 'status=none'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(dd);
  const out = dd.stdout!;
  out.on('data', () => {
    out.pause();
    setTimeout(() => out.resume(), 100);
  });
  const code = exited(dd);

  const open = page.locator('.streams-table--open tbody tr', { hasText: 'Streamed.Movie.mkv' });
  await expect(open).toBeVisible();
  await expect(open.locator('.col-front')).toHaveText('FUSE');
  await expect(open.locator('.col-client')).toContainText(`pid ${dd.pid}`);
  await expect(open.locator('.col-class')).toContainText('player');
  await expect(open.locator('.col-rate')).toContainText(/of 4[01]\d\.\d KB\/s/);
  // (no provider is asserted here: the article cache still holds what the curl above fetched)

  await open.getByRole('button', { name: /End stream/ }).click();
  await page.getByRole('dialog', { name: 'End Stream' }).getByRole('button', { name: 'End Stream' }).click();
  expect(await code).not.toBe(0); // its next read failed (EIO)
  await expect(open).toHaveCount(0);
  const ended = page.locator('.streams-table--ended tbody tr', { hasText: `pid ${dd.pid}` });
  await expect(ended.locator('.col-reason')).toHaveText('ended');
});
