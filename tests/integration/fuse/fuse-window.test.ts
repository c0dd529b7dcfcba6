import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { removeMountPoint, tempMountPoint } from '../../support/fuse/mount-point.js';
import { addPosted, sha256 } from '../webdav/support.js';
import { innProvider } from '../../support/inn/provider.js';
import { HUNG_RUN_MS } from '../../support/wait.js';

// The native read window on a real mount: most reads of a sequential reader never reach JS, and readers racing
// the window's publish/retire (many at once, a 1 MiB cache recycling article buffers all the time) never see a
// wrong byte.
const run = promisify(execFile);
let inn: InnServer;
let srv: TestServer;
let file: Buffer;
let mnt: string;
let onDisk: string;

before(async () => {
  inn = await ensureInn();
  file = randomBytes(6 * 1024 * 1024 + 12_345);
  const posted = await inn.postFile('window.bin', file, { articleSize: 250_000 });
  mnt = tempMountPoint('spool-win-mnt-');
  srv = await startServer({
    config: {
      auth: { login_required: false },
      mount_path: mnt,
      providers: [innProvider(inn, { max_connections: 4 })],
      streaming: { max_cache_size_mb: 1, max_download_workers: 8 },
    },
  });
  const [virtual] = (await addPosted(srv, 'tv', 'Window', [posted])) as [string];
  const started = await fetch(`${srv.baseUrl}/api/rclone/mount/start`, { method: 'POST' });
  assert.equal(started.status, 200, await started.text());
  onDisk = join(mnt, virtual);
});
after(async () => {
  await srv?.stop();
  await removeMountPoint(mnt);
});

const counters = () => {
  const c = srv.app().streaming.mount.readCounters();
  assert.ok(c, 'mounted');
  return c;
};

/** sha256 of the file read by another process; O_DIRECT so that every read reaches the file system. */
async function sumOf(direct: boolean, bs = '1M'): Promise<string> {
  const args = [`if=${onDisk}`, 'of=/dev/stdout', `bs=${bs}`, 'status=none', ...(direct ? ['iflag=direct'] : [])];
  const { stdout } = await run('sh', ['-c', `dd ${args.join(' ')} | sha256sum`], { timeout: HUNG_RUN_MS });
  return stdout.split(' ')[0] as string;
}

test('a sequential read is byte-exact and mostly answered by the native window, without JS', async () => {
  const before = counters();
  assert.equal(await sumOf(false, '128k'), sha256(file)); // 128 KiB reads: ~48 of them, the first few wait
  const after = counters();
  const native = after.native_reads - before.native_reads;
  const js = after.js_reads - before.js_reads;
  assert.ok(native > 0, 'some reads were answered natively');
  assert.ok(native > js, `native ${native} vs JS ${js}: the window answers most reads`);
  assert.ok(after.native_bytes > before.native_bytes);
});

test('many readers at once with a tiny cache (publish and retire racing the reads) never return a wrong byte', async () => {
  const before = counters();
  const readers: Promise<string>[] = [];
  for (let i = 0; i < 6; i++) readers.push(sumOf(true, i % 2 ? '128k' : '1M'));
  // In-process random reads on one handle interleave with them: seeks drop and rebuild that handle's window.
  const randomReads = (async () => {
    const fh = await open(onDisk, 'r');
    try {
      for (let i = 0; i < 40; i++) {
        const pos = randomInt(0, file.length - 1);
        const len = Math.min(file.length - pos, randomInt(1, 600_000));
        const buf = Buffer.alloc(len);
        const { bytesRead } = await fh.read(buf, 0, len, pos);
        assert.equal(bytesRead, len);
        assert.ok(buf.equals(file.subarray(pos, pos + len)), `random read at ${pos}+${len}`);
      }
    } finally {
      await fh.close();
    }
  })();
  const sums = await Promise.all(readers);
  await randomReads;
  for (const s of sums) assert.equal(s, sha256(file));
  const after = counters();
  assert.ok(after.native_reads - before.native_reads > 0, 'the concurrent readers were served natively too');
});

test('after every reader closed its file, no window is left open', async () => {
  await new Promise((r) => setTimeout(r, 200)); // the kernel sends release after close returns
  assert.equal(srv.app().streaming.mount.openHandles(), 0);
});

/** Mean size of the reads the window answered while `read` ran. */
async function meanNativeRead(read: () => Promise<void>): Promise<number> {
  const before = counters();
  await read();
  const after = counters();
  const reads = after.native_reads - before.native_reads;
  assert.ok(reads > 0, 'reads were answered natively');
  return (after.native_bytes - before.native_bytes) / reads;
}

test('direct I/O (the default): reads reach the window at the reader size, not in 128 KiB read-ahead pages', async () => {
  // Every read the kernel sends is counted, answered by the window or by JS (a read the window cannot answer
  // whole yet goes to JS, more often on a busy machine): 1 MiB reads of 6 MiB are 7 (and an empty one at the
  // end); the kernel's 128 KiB read-ahead pages would be 49.
  const before = counters();
  assert.equal(await sumOf(false, '1M'), sha256(file));
  const after = counters();
  const reads = after.native_reads - before.native_reads + (after.js_reads - before.js_reads);
  assert.ok(reads > 0 && reads <= Math.ceil(file.length / (1024 * 1024)) + 2, `${reads} reads reached the mount`);
});

test('mount_options direct_io=false: the page-cache mount reads byte-exact through kernel read-ahead', async () => {
  const post = (path: string, body?: unknown) =>
    fetch(`${srv.baseUrl}${path}`, {
      method: body === undefined ? 'POST' : 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  assert.equal((await post('/api/rclone/mount/stop')).status, 200);
  const patched = await post('/api/config/rclone', {
    section: 'rclone',
    config: { mount_options: { direct_io: false } },
  });
  assert.equal(patched.status, 200, await patched.text());
  assert.equal((await post('/api/rclone/mount/start')).status, 200);
  const mean = await meanNativeRead(async () => assert.equal(await sumOf(false, '1M'), sha256(file)));
  assert.ok(mean <= 128 * 1024, `mean native read ${mean} bytes: the kernel's read-ahead size`);
});
