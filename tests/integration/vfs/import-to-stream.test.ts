import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { startImportServer, upload, waitForItem, type QueueItem, type TestServer } from '../import/support.js';
import { davUrl, sha256 } from '../webdav/support.js';
import { film } from '../../support/media/film.js';

// End to end: an NZB of files posted to the real INN comes in through POST /api/queue/upload, the real importer
// writes the job, and the bytes come back exact over WebDAV and the FUSE mount.
let inn: InnServer;
let srv: TestServer;
let mnt: string;
let movie: Buffer;
let item: QueueItem;
let filePath: string;

before(async () => {
  inn = await ensureInn();
  movie = film(9 * 1024 * 1024 + 54_321);
  const posted = await inn.postFile('End.To.End.2024.1080p.mkv', movie, { articleSize: 384_000 });
  mnt = tempMountPoint('spool-e2e-mnt-');
  srv = await startImportServer(inn, {
    mount_path: mnt,
    import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 10 },
  });
  const queued = await upload(srv.baseUrl, 'End.To.End.2024.1080p.nzb', posted.nzbXml, { category: 'movies' });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  item = await waitForItem(srv.baseUrl, queued.body.data!.id);
  filePath = `${item.target_path}/End.To.End.2024.1080p.mkv`;
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

test('the importer completed the job and the file info reports what the probe learned', async () => {
  assert.equal(item.status, 'completed', item.error_message ?? '');
  const res = await fetch(`${srv.baseUrl}/api/files/info?path=${encodeURIComponent(filePath)}`);
  const info = (
    (await res.json()) as {
      data: { file_size: number; segment_count: number; available_segments: number; status: string };
    }
  ).data;
  assert.equal(info.file_size, movie.length);
  assert.equal(info.segment_count, Math.ceil(movie.length / 384_000));
  assert.equal(info.available_segments, info.segment_count);
  assert.equal(info.status, 'healthy', 'pending a health check, but the import probe found its sample');
});

test('WebDAV: full GET and random ranges are byte-exact', async () => {
  const res = await fetch(davUrl(srv, filePath));
  assert.equal(res.status, 200);
  assert.equal(sha256(Buffer.from(await res.arrayBuffer())), sha256(movie));
  for (let i = 0; i < 25; i++) {
    const start = randomInt(0, movie.length - 1);
    const end = Math.min(movie.length - 1, start + randomInt(0, 1_500_000));
    const r = await fetch(davUrl(srv, filePath), { headers: { Range: `bytes=${start}-${end}` } });
    assert.equal(r.status, 206);
    assert.ok(Buffer.from(await r.arrayBuffer()).equals(movie.subarray(start, end + 1)), `range ${start}-${end}`);
  }
});

test('FUSE: the same file through the mount, whole and with seeks', async () => {
  const started = (await (await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' })).json()) as {
    success: boolean;
  };
  assert.equal(started.success, true);
  // Async fs only: this process serves the mount's callbacks.
  const onDisk = join(mnt, filePath);
  assert.equal(sha256(await readFile(onDisk)), sha256(movie));
  const fh = await open(onDisk, 'r');
  try {
    for (let i = 0; i < 20; i++) {
      const pos = randomInt(0, movie.length - 1);
      const len = Math.min(movie.length - pos, randomInt(1, 900_000));
      const buf = Buffer.alloc(len);
      assert.equal((await fh.read(buf, 0, len, pos)).bytesRead, len);
      assert.ok(buf.equals(movie.subarray(pos, pos + len)), `seek to ${pos}`);
    }
  } finally {
    await fh.close();
  }
  await fetch(`${srv.baseUrl}/api/rclone/mount/stop`, { method: 'POST' });
  assert.equal(isMounted(mnt), false);
});
