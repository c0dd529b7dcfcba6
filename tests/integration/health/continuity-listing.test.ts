import assert from 'node:assert/strict';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { api, davList, startImportServer, type TestServer } from '../import/support.js';
import { checkAndWait, importPosted } from './support.js';
import { film } from '../../support/media/film.js';

// A file under repair stays in the library (docs/health.md "Continuity"): a corrupted verdict (evidence: the first
// article is gone from the real INN) leaves the file listed over WebDAV and FUSE at its path, its readable bytes
// served; only the console's Files screen hides it, by asking with X-Show-Corrupted: false.
let inn: InnServer;
let srv: TestServer;
let mnt: string;

before(async () => {
  inn = await ensureInn();
  mnt = tempMountPoint('spool-continuity-mnt-');
  srv = await startImportServer(inn, {
    mount_path: mnt,
    health: { enabled: true, auto_repair_enabled: false, check_interval_seconds: 86_400, check_all_segments: true },
  });
  const started = await api(srv.baseUrl, '/api/rclone/mount/start', { method: 'POST' });
  assert.equal(started.status, 200, JSON.stringify(started.body));
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

const ARTICLE = 20_000;

async function propfind(path: string, header?: string): Promise<string> {
  const res = await fetch(`${srv.baseUrl}/webdav${path}`, {
    method: 'PROPFIND',
    headers: { Depth: '1', ...(header === undefined ? {} : { 'X-Show-Corrupted': header }) },
  });
  assert.equal(res.status, 207);
  return res.text();
}

test('a corrupted file stays listed and readable where its articles are; the console hides it when it asks to', async () => {
  const movie = film(10 * ARTICLE);
  const { path, ids } = await importPosted(srv.baseUrl, inn, 'Kept.Film.2021.mkv', movie, ARTICLE);
  cancelArticles(inn, [ids[0]!, ids[2]!]);
  const r = await checkAndWait(srv.baseUrl, path);
  assert.equal(r.status, 'corrupted', 'the first article gone: corrupted, from evidence');
  const dir = dirname(path);
  const name = basename(path);
  // the file's own href (the job folder carries the same name, with a trailing slash)
  const listed = new RegExp(`/${encodeURIComponent(name).replace(/\./g, '\\.')}</`);

  assert.match(await propfind(dir), listed, 'a player or media server still sees it');
  assert.deepEqual(await davList(srv.baseUrl, dir), [name]);
  assert.doesNotMatch(await propfind(dir, 'false'), listed, 'the console, toggle off');
  assert.match(await propfind(dir, 'true'), listed, 'the console, toggle on');

  // Its readable bytes serve; a missing article's range fails, never zero-filled.
  const middle = await fetch(`${srv.baseUrl}/webdav${path}`, {
    headers: { Range: `bytes=${3 * ARTICLE}-${5 * ARTICLE - 1}` },
  });
  assert.equal(middle.status, 206);
  assert.ok(Buffer.from(await middle.arrayBuffer()).equals(movie.subarray(3 * ARTICLE, 5 * ARTICLE)));
  const gone = await fetch(`${srv.baseUrl}/webdav${path}`, {
    headers: { Range: `bytes=${2 * ARTICLE}-${2 * ARTICLE + 99}` },
  });
  assert.equal(gone.status, 502, 'the gone article is an error, not zeros');
  await gone.body?.cancel();
  // The first article, gone from INN too, was kept by the probe cache at import (docs/streaming.md, "The probe
  // cache"): its bytes, checked when fetched, still serve the player's header read.
  const head = await fetch(`${srv.baseUrl}/webdav${path}`, { headers: { Range: 'bytes=0-99' } });
  assert.equal(head.status, 206);
  assert.ok(Buffer.from(await head.arrayBuffer()).equals(movie.subarray(0, 100)));

  // FUSE: listed, stat answers, the readable range reads byte-exact.
  assert.deepEqual(await readdir(join(mnt, dir)), [name]);
  assert.equal((await stat(join(mnt, path))).size, movie.length);
  const fh = await open(join(mnt, path), 'r');
  try {
    const buf = Buffer.alloc(ARTICLE);
    const { bytesRead } = await fh.read(buf, 0, ARTICLE, 6 * ARTICLE);
    assert.equal(bytesRead, ARTICLE);
    assert.ok(buf.equals(movie.subarray(6 * ARTICLE, 7 * ARTICLE)));
  } finally {
    await fh.close();
  }
});
