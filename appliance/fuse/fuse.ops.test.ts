import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { Fuse } from './fuse.binding.js';
import { createFuseOps } from './fuse.ops.js';
import { VfsReader, type ReaderSettings } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs } from '../../tests/support/vfs/memory.js';

// The FUSE read callback without a kernel: cached reads answer before read() returns; waiting reads are bounded.
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(40_000);
const { layout, articles } = memoryArticles(bytes, 8_000);
const PATH = '/complete/x/J/f.bin';
const settings: ReaderSettings = {
  cacheBytes: 1 << 20,
  workersPerStream: 2,
  zeroFill: { enabled: false, maxHoleBytes: 0, maxHolesPerFile: 0, maxFileShare: 0 },
};
const base = { uid: 0, gid: 0, umask: 0o022, readOnly: true, readAhead: () => 2 };

function opsWith(source: MapSource, readTimeoutMs = 15_000) {
  const ops = createFuseOps(t.vfs, new VfsReader(t.vfs, source, () => settings), { ...base, readTimeoutMs });
  const read = (fd: number, buf: Buffer, pos: number) =>
    new Promise<number>((resolve) => ops.read!(PATH, fd, buf, buf.length, pos, (n) => resolve(n ?? 0)));
  const open = () =>
    new Promise<number>((resolve, reject) =>
      ops.open!(PATH, 0, (err, fd) => (err ? reject(new Error(`open ${err}`)) : resolve(fd as number))),
    );
  return { ops, open, read };
}

test('setup', async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('a read the read-ahead already holds is answered before read() returns; the first one waits', async () => {
  const { ops, open, read } = opsWith(new MapSource(articles, 5));
  const fd = await open();
  const buf = Buffer.alloc(5_000);
  const first = await read(fd, buf, 0);
  assert.equal(first, 5_000);
  await new Promise((r) => setTimeout(r, 30)); // read-ahead: articles 1-2 arrive
  let answer: number | null = null;
  ops.read!(PATH, fd, buf, 5_000, 5_000, (n) => (answer = n ?? 0));
  assert.equal(answer, 5_000, 'answered synchronously');
  assert.deepEqual(buf, bytes.subarray(5_000, 10_000));
  // A handler failure (here a buffer shorter than the length asked for) is an errno, never a thrown exception.
  let failed: number | null = null;
  ops.read!(PATH, fd, Buffer.alloc(10), 5_000, 5_000, (n) => (failed = n ?? 0));
  assert.equal(failed, Fuse.EIO);
  await new Promise<void>((r) => ops.release!(PATH, fd, () => r()));
});

test('a read still waiting after readTimeoutMs answers ETIMEDOUT and never touches the buffer afterwards', async () => {
  const { ops, open, read } = opsWith(new MapSource(articles, 300), 50);
  const fd = await open();
  const buf = Buffer.alloc(1_000, 0xee);
  const res = await read(fd, buf, 20_000);
  assert.equal(res, Fuse.ETIMEDOUT);
  await new Promise((r) => setTimeout(r, 400)); // the article would have arrived by now
  assert.deepEqual(buf, Buffer.alloc(1_000, 0xee));
  await new Promise<void>((r) => ops.release!(PATH, fd, () => r()));
});

test('release while a read waits answers it EIO; an unknown handle is EBADF', async () => {
  const { ops, open, read } = opsWith(new MapSource(articles, 300));
  const fd = await open();
  const pending = read(fd, Buffer.alloc(10), 30_000);
  await new Promise<void>((r) => ops.release!(PATH, fd, () => r()));
  assert.equal(await pending, Fuse.EIO);
  const bad = await read(999, Buffer.alloc(10), 0);
  assert.equal(bad, Fuse.EBADF);
});
