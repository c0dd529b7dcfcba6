import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { isMounted } from '../../../appliance/fuse/mount.service.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { addPosted, sha256 } from '../webdav/support.js';
import { innProvider } from '../../support/inn/provider.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// The FUSE mount (real /dev/fuse) of files posted to a real INN; plus the files API and `rclone copy` over WebDAV.
const run = promisify(execFile);
let inn: InnServer;
let srv: TestServer;
let file: Buffer;
let mnt: string;
let filePath: string;

before(async () => {
  inn = await ensureInn();
  file = film(3 * 1024 * 1024 + 777);
  const posted = await inn.postFile('show.s01e01.mkv', file, { articleSize: 300_000 });
  mnt = tempMountPoint('spool-mnt-');
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      providers: [innProvider(inn, { max_connections: 4 })],
    },
  });
  [filePath] = (await addPosted(srv, 'tv', 'Show.S01E01', [posted])) as [string];
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

const post = (p: string, body?: unknown) =>
  fetch(`${srv.baseUrl}${p}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<{ success: boolean; data: Record<string, unknown> }>);

test('mount start: the tree appears, reads are byte-exact, seeks read the right bytes', async () => {
  const started = await post('/api/rclone/mount/start');
  assert.equal(started.success, true, JSON.stringify(started));
  const status = (await (await fetch(`${srv.baseUrl}/api/rclone/mount/status`)).json()) as {
    data: { mounted: boolean; mount_point: string };
  };
  assert.deepEqual(status.data, { mounted: true, mount_point: mnt, error: '' });
  // Async fs only: the mount is served by this very process, so a sync call would block its own FUSE callbacks.
  assert.deepEqual(await readdir(join(mnt, 'complete', 'tv')), ['Show.S01E01']);
  const onDisk = join(mnt, filePath);
  assert.equal(sha256(await readFile(onDisk)), sha256(file));
  const fh = await open(onDisk, 'r');
  try {
    for (let i = 0; i < 30; i++) {
      const pos = randomInt(0, file.length - 1);
      const len = Math.min(file.length - pos, randomInt(1, 400_000));
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fh.read(buf, 0, len, pos);
      assert.equal(bytesRead, len);
      assert.ok(buf.equals(file.subarray(pos, pos + len)), `seek to ${pos}`);
    }
  } finally {
    await fh.close();
  }
});

test('rename and unlink through the mount change the virtual tree', async () => {
  const dir = join(mnt, 'complete', 'tv', 'Show.S01E01');
  await run('mv', [join(dir, 'show.s01e01.mkv'), join(dir, 'renamed.mkv')]);
  assert.ok(srv.app().streaming.vfs.stat('/complete/tv/Show.S01E01/renamed.mkv'));
  await run('mv', [join(dir, 'renamed.mkv'), join(dir, 'show.s01e01.mkv')]);
});

test('files API: info (docs/console-contract.md §3 File metadata) and export-nzb', async () => {
  const info = (await (await fetch(`${srv.baseUrl}/api/files/info?path=${encodeURIComponent(filePath)}`)).json()) as {
    data: Record<string, unknown> & { segments: unknown[] };
  };
  assert.equal(info.data.file_size, file.length);
  assert.equal(info.data.segment_count, 11);
  assert.equal(info.data.available_segments, 11);
  assert.equal(info.data.source_nzb_path, '/nzb/Show.S01E01.nzb');
  assert.deepEqual(info.data.segments[1], {
    message_id: (info.data.segments[1] as { message_id: string }).message_id,
    segment_size: 300_000,
    start_offset: 300_000,
    end_offset: 599_999,
    available: true,
  });
  const nzb = await fetch(`${srv.baseUrl}/api/files/export-nzb?path=${encodeURIComponent('/webdav' + filePath)}`);
  assert.equal(nzb.status, 200);
  assert.match(nzb.headers.get('content-disposition') ?? '', /show\.s01e01\.mkv\.nzb/);
  const xml = await nzb.text();
  assert.equal((xml.match(/<segment /g) ?? []).length, 11);
  const missing = await fetch(`${srv.baseUrl}/api/files/info?path=/complete/nope`);
  assert.equal(missing.status, 404);
  const bad = await fetch(`${srv.baseUrl}/api/files/info?path=/complete/../etc`);
  assert.equal(bad.status, 400);
});

test('rclone copy from /webdav brings the file home byte-exact', async () => {
  const out = mkdtempSync(join(tmpdir(), 'spool-rclone-'));
  try {
    await run('rclone', ['copy', '--config', '/dev/null', `:webdav,url='${srv.baseUrl}/webdav':complete/tv`, out], {
      timeout: 120_000,
    });
    assert.equal(sha256(await readFile(join(out, 'Show.S01E01', 'show.s01e01.mkv'))), sha256(file));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('rclone RC test against a real rclone rcd; wrong password fails clearly', async () => {
  const port = 20000 + randomInt(0, 20000);
  const child = execFile('rclone', [
    'rcd',
    `--rc-addr=127.0.0.1:${port}`,
    '--rc-user=rc',
    '--rc-pass=rcpw',
    '--config',
    '/dev/null',
  ]);
  try {
    let ok = { success: false, data: {} as Record<string, unknown> };
    await waitUntil(
      () => `rclone rcd to answer the test: ${JSON.stringify(ok.data)}`,
      async () => {
        ok = await post('/api/rclone/test', { rc_url: `http://127.0.0.1:${port}`, rc_user: 'rc', rc_pass: 'rcpw' });
        return ok.data.success === true;
      },
    );
    assert.deepEqual(ok.data, { success: true, error_message: '' });
    const bad = await post('/api/rclone/test', { rc_url: `http://127.0.0.1:${port}`, rc_user: 'rc', rc_pass: 'wrong' });
    assert.equal(bad.data.success, false);
    assert.match(String(bad.data.error_message), /401|auth/i);
  } finally {
    child.kill();
  }
});

test('mount stop unmounts', async () => {
  const stopped = await post('/api/rclone/mount/stop');
  assert.equal(stopped.success, true);
  assert.equal(isMounted(mnt), false);
});
