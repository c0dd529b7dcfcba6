import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { buildNzb, type PostedFile } from '../support/inn/poster.js';
import { ensureInn, type InnServer } from '../support/inn/server.js';
import { expect, test } from './support/fixtures.js';
import { ADMIN } from './support/fixtures.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';
import { importNzb as importFromNzb } from './support/imports.js';
import { innProvider } from '../support/inn/provider.js';
import { film } from '../support/media/film.js';

// The Files screen against the real server: files posted to a real INN, imported through the real queue API,
// listed, inspected, previewed, downloaded, exported and deleted through the real WebDAV in real Chromium.
let inn: InnServer;
let spool: Spool | undefined;
let cookie = '';
let movie: PostedFile;
const JOB = '/complete/movies/Sample.Show';
const BIG = '/complete/movies/Big.Folder';
// Small companions (.txt, .nfo) are imported only in a job without media, so the notes get their own job.
const NOTES_JOB = '/complete/movies/Notes.Job';
const NOTES = 'First line of the notes\nsecond line\nthird and last line\n';
const POSTER = 'Spool Test <poster@spool.test>';

test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

/** A one-second VP8 clip recorded by Chromium itself from a canvas: a real, playable video with no ffmpeg. */
async function recordWebm(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const b64 = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 120;
      const ctx = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      let frame = 0;
      await new Promise<void>((resolve) => {
        const draw = () => {
          ctx.fillStyle = `hsl(${(frame * 15) % 360} 70% 50%)`;
          ctx.fillRect(0, 0, 160, 120);
          if (++frame < 25) requestAnimationFrame(draw);
          else resolve();
        };
        draw();
      });
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    });
    return Buffer.from(b64, 'base64');
  } finally {
    await page.close();
  }
}

const importNzb = (name: string, xml: string) => importFromNzb(spool!.baseURL, cookie, name, xml);

test.beforeAll(async ({ browser }) => {
  inn = await ensureInn();
  spool = await startSpool({
    config: {
      providers: [innProvider(inn)],
      import: {
        queue_processing_interval_seconds: 1,
        segment_sample_percentage: 100,
        allowed_file_extensions: ['.mkv', '.webm', '.txt'],
      },
    },
  });
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  cookie = reg.cookie!;

  movie = await inn.postFile('Movie.mkv', film(3_000_000), { articleSize: 400_000 });
  const notes = await inn.postFile('notes.txt', Buffer.from(NOTES));
  const clip = await inn.postFile('clip.webm', await recordWebm(browser));
  expect(await importNzb('Sample.Show.nzb', buildNzb([movie, clip], inn.group, POSTER))).toBe(JOB);
  expect(await importNzb('Notes.Job.nzb', buildNzb([notes], inn.group, POSTER))).toBe(NOTES_JOB);

  const many: PostedFile[] = [];
  for (let i = 1; i <= 120; i += 12) {
    const batch = Array.from({ length: 12 }, (_, k) => `Episode.${String(i + k).padStart(3, '0')}.mkv`);
    many.push(...(await Promise.all(batch.map((n) => inn.postFile(n, film(2048, n))))));
  }
  expect(await importNzb('Big.Folder.nzb', buildNzb(many, inn.group, POSTER))).toBe(BIG);
});

test.afterAll(async () => {
  await spool?.stop();
});

async function signedIn(page: Page): Promise<void> {
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name: name!, value: value!, url: spool!.baseURL }]);
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

const openFolder = (page: Page, name: string) => card(page, name).getByRole('button', { name, exact: true }).click();

async function menuAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

test('connects once, lists the root, and navigates by folder cards and breadcrumbs', async ({ page }) => {
  await signedIn(page);
  await page.goto('/files');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  await openFolder(page, 'complete');
  await openFolder(page, 'movies');
  await openFolder(page, 'Sample.Show');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('listitem')).toHaveText(['Root', 'complete', 'movies', 'Sample.Show']);
  // Folders first, then names; each card has size, relative time and type.
  await expect(page.getByTestId('file-card').locator('.file-card__name')).toHaveText(['clip.webm', 'Movie.mkv']);
  await expect(card(page, 'Movie.mkv')).toContainText('2.9 MB');
  await expect(card(page, 'Movie.mkv')).toContainText('just now');
  await expect(card(page, 'Movie.mkv')).toContainText('MKV');
  await crumbs.getByRole('button', { name: 'movies' }).click();
  await expect(page).toHaveURL(/path=%2Fcomplete%2Fmovies$/);
  await expect(card(page, 'Big.Folder')).toBeVisible();
  await crumbs.getByRole('button', { name: 'Root' }).click();
  await expect(card(page, 'complete')).toBeVisible();
});

test('search filters the folder case-insensitively with counts; opening a folder clears it', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  const search = page.getByLabel('Search this folder');
  await search.fill('MOVIE');
  await expect(page.getByTestId('file-card')).toHaveCount(1);
  await expect(card(page, 'Movie.mkv')).toBeVisible();
  await expect(page.getByText('1 of 2 items match')).toBeVisible();
  await search.fill('zzz');
  await expect(page.getByText('No Search Results')).toBeVisible();
  // Focused, the ring goes round the whole search box, not round the bare input inside it.
  const shadows = await search.evaluate((input) => ({
    input: getComputedStyle(input).boxShadow,
    box: getComputedStyle(input.parentElement!).boxShadow,
  }));
  expect(shadows.input).toBe('none');
  expect(shadows.box).not.toBe('none');
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByTestId('file-card')).toHaveCount(2);
  await page.goto(`/files?path=${encodeURIComponent('/complete/movies')}`);
  await search.fill('big');
  await openFolder(page, 'Big.Folder');
  await expect(search).toHaveValue('');
});

test('file info: overview with real segment counts, segments table, source; Check Now; Escape closes', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  await menuAction(page, 'Movie.mkv', 'File Info');
  const dialog = page.getByRole('dialog', { name: 'Movie.mkv' });
  const n = movie.segments.length;
  await expect(dialog.getByText(`${n} of ${n} segments available (100.0%)`)).toBeVisible();
  const check = page.waitForRequest((r) => r.url().endsWith('/api/health/check') && r.method() === 'POST');
  await dialog.getByRole('button', { name: 'Check Now' }).click();
  expect((await check).postDataJSON()).toEqual({
    file_path: `${JOB}/Movie.mkv`,
    source_nzb_path: 'Sample.Show.nzb',
    priority: true,
  });
  await expect(page.locator('.toast__title', { hasText: /^File Added to Health Check Queue$/ })).toBeVisible();

  await dialog.getByRole('tab', { name: 'Segments' }).click();
  const rows = dialog.locator('tbody tr');
  await expect(rows).toHaveCount(n);
  await expect(rows.first()).toContainText(movie.segments[0]!.messageId);
  await expect(rows.first()).toContainText(`0 – ${(movie.segments[0]!.size - 1).toLocaleString('en-US')}`);
  await dialog.getByRole('tab', { name: 'Source' }).click();
  await expect(dialog).toContainText('Sample.Show.nzb');
  await expect(dialog).toContainText('Complete');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('preview: text with language and line count; video streamed from /webdav and playable', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(NOTES_JOB)}`);
  await menuAction(page, 'notes.txt', 'Preview');
  await expect(page.getByTestId('preview-text-meta')).toHaveText('Plain Text · 3 lines');
  await expect(page.getByTestId('preview-text')).toHaveText(NOTES);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('preview-text')).toBeHidden();

  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  const media = page.waitForResponse((r) => r.url().endsWith('/webdav/complete/movies/Sample.Show/clip.webm'));
  await menuAction(page, 'clip.webm', 'Preview');
  expect([200, 206]).toContain((await media).status());
  const video = page.getByTestId('preview-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
});

test('download opens the WebDAV URL; export saves {name}.nzb with the real message ids', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(NOTES_JOB)}`);
  const popup = page.waitForEvent('popup');
  await menuAction(page, 'notes.txt', 'Download');
  const win = await popup;
  await expect(win).toHaveURL(/\/webdav\/complete\/movies\/Notes\.Job\/notes\.txt$/);
  await expect(win.locator('body')).toContainText('second line');
  await win.close();
  await expect(page.locator('.toast__title', { hasText: 'Download Started' })).toBeVisible();

  await page.goto(`/files?path=${encodeURIComponent(JOB)}`);
  const download = page.waitForEvent('download');
  await menuAction(page, 'Movie.mkv', 'Export as NZB');
  const file = await download;
  expect(file.suggestedFilename()).toBe('Movie.mkv.nzb');
  const xml = readFileSync((await file.path())!, 'utf8');
  for (const s of movie.segments) expect(xml).toContain(s.messageId);
  await expect(page.locator('.toast__title', { hasText: 'NZB Exported' })).toBeVisible();
});

test('delete asks first, then removes the file from the tree', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(NOTES_JOB)}`);
  await menuAction(page, 'notes.txt', 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(confirm).toContainText('Are you sure you want to delete "notes.txt"? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card(page, 'notes.txt')).toBeVisible();
  await menuAction(page, 'notes.txt', 'Delete');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, 'notes.txt')).toBeHidden();
  const res = await fetch(`${spool!.baseURL}/webdav${NOTES_JOB}/notes.txt`, {
    method: 'HEAD',
    headers: { Cookie: cookie },
  });
  expect(res.status).toBe(404);
});

test('120 items render in the virtual grid: only the rows in view exist in the DOM', async ({ page }) => {
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent(BIG)}`);
  const grid = page.getByTestId('virtual-grid');
  await expect(grid).toHaveAttribute('data-total-items', '120');
  await expect(card(page, 'Episode.001.mkv')).toBeVisible();
  // 1280 px wide: 4 columns; 3 rows in the 600 px view + 2 overscan = 5 rows = 20 cards, not 120.
  await expect(page.getByTestId('file-card')).toHaveCount(20);
  await grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(card(page, 'Episode.120.mkv')).toBeVisible();
  await expect(card(page, 'Episode.001.mkv')).toHaveCount(0);
  expect(await page.getByTestId('file-card').count()).toBeLessThanOrEqual(28);
  // Under 100 matches the plain grid returns.
  await page.getByLabel('Search this folder').fill('Episode.01');
  await expect(page.getByTestId('file-grid')).toBeVisible();
  await expect(page.getByTestId('file-card')).toHaveCount(10);
});

test('empty folders, the corrupted toggle header, and a failed connection with retry', async ({ page }) => {
  const mk = await fetch(`${spool!.baseURL}/webdav/complete/Empty`, { method: 'MKCOL', headers: { Cookie: cookie } });
  expect(mk.status).toBe(201);
  await signedIn(page);
  await page.goto(`/files?path=${encodeURIComponent('/complete/Empty')}`);
  await expect(page.getByText('Empty Directory')).toBeVisible();
  await expect(page.getByText('Cannot search - directory is empty')).toBeVisible();

  const corrupted = page.waitForRequest((r) => r.method() === 'PROPFIND' && r.headers()['x-show-corrupted'] === 'true');
  await page.getByLabel('Show corrupted files').check();
  await corrupted;
  await expect(page.getByText('Corrupted files are listed too.')).toBeVisible();

  // Fault injection: the WebDAV server answers 503 on the first connection attempt of a fresh page load.
  await page.route('**/webdav/', (route) => route.fulfill({ status: 503, body: 'busy' }));
  await page.goto('/files');
  await expect(page.getByRole('heading', { name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByText('Service Unavailable: WebDAV server overloaded')).toBeVisible();
  await expect(page.getByText("Make sure you're logged in to the application")).toBeVisible();
  await page.unroute('**/webdav/');
  await page.getByRole('button', { name: 'Retry Connection' }).click();
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
});
