import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Errno, Op, requireAddon } from './fuse.binding.js';
import { createFuseOps } from './fuse.ops.js';
import { VfsReader } from '../vfs/reader.js';
import { MapSource, memoryArticles, tempVfs, testReaderSettings } from '../../tests/support/vfs/memory.js';
import { waitUntil } from '../../tests/support/wait.js';

// The JS side of the FUSE requests without a kernel: what reaches JS, what the native window then holds.
const native = requireAddon();
const t = tempVfs();
after(() => t.close());
const bytes = randomBytes(80_000);
const { layout, articles } = memoryArticles(bytes, 8_000);
const PATH = '/complete/x/J/f.bin';
const base = { uid: 1, gid: 2, umask: 0o022, readOnly: true, readAhead: () => 3 };
const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms));

interface Answered {
  result: number;
  a?: unknown;
  b?: unknown;
  c?: unknown;
}

function opsWith(source: MapSource, readTimeoutMs = 15_000) {
  const table = native.createTable();
  const answers = new Map<number, Answered>();
  const reader = new VfsReader(t.vfs, source, () => testReaderSettings());
  const ops = createFuseOps(t.vfs, reader, { ...base, readTimeoutMs }, native, table, (id, result, a, b, c) => {
    assert.ok(!answers.has(id), `request ${id} answered twice`);
    answers.set(id, { result, a, b, c });
  });
  let nextId = 1;
  /** Dispatches one request and waits for its answer (tests/support/wait.ts). */
  const ask = async (op: number, path: string, a?: number | string, b?: number, c?: number) => {
    const id = nextId++;
    ops.dispatch(op, id, path, a, b, c);
    return waitUntil(`the answer to request ${id}`, () => answers.get(id) as Answered | undefined, { everyMs: 5 });
  };
  return {
    ops,
    ask,
    table,
    answers,
    dispatch: (op: number, id: number, ...args: number[]) => ops.dispatch(op, id, PATH, ...args),
  };
}

before(async () => {
  await t.vfs.addJob({ category: 'x', jobName: 'J', files: [{ name: 'f.bin', size: bytes.length, layout }] });
});

test('getattr and readdir answer stat fields and names; a missing path is ENOENT', async () => {
  const { ask } = opsWith(new MapSource(articles));
  const file = await ask(Op.getattr, PATH);
  assert.equal(file.result, 0);
  const st = file.a as Float64Array;
  assert.deepEqual([...st.subarray(0, 5)], [0o100444, 1, 2, bytes.length, 1]);
  const dir = await ask(Op.readdir, '/complete/x/J');
  assert.deepEqual([dir.result, dir.a, [...(dir.b as Uint8Array)]], [0, ['f.bin'], [0]]);
  assert.deepEqual(dir.c, st, 'each entry with its attributes, as getattr answers them (readdirplus)');
  assert.equal((await ask(Op.getattr, '/nope')).result, Errno.ENOENT);
  assert.equal((await ask(Op.open, PATH, 1)).result, Errno.EROFS, 'O_WRONLY on an article-backed file');
  assert.equal((await ask(Op.unlink, PATH)).result, Errno.EROFS, 'read_only');
});

test('a file the health domain judged corrupted stays at its path: getattr answers, readdir lists it', async () => {
  const { ask } = opsWith(new MapSource(articles));
  t.verdicts.corruptedPaths.add(PATH); // the health store's verdict, asked through vfs.health: the node has none
  try {
    // a file under repair stays in the library (docs/health.md "Continuity")
    assert.equal((await ask(Op.getattr, PATH)).result, 0);
    assert.equal(((await ask(Op.readdir, '/complete/x/J')).a as unknown[]).length, 1);
  } finally {
    t.verdicts.corruptedPaths.delete(PATH);
  }
  assert.equal((await ask(Op.getattr, PATH)).result, 0);
});

test('the first read waits in JS; the read-ahead then lands in the native window, byte-exact', async () => {
  const source = new MapSource(articles, 5);
  const { ask, table, ops } = opsWith(source);
  const fh = (await ask(Op.open, PATH, 0)).a as number;
  const first = await ask(Op.read, PATH, fh, 0, 4_096);
  assert.equal(first.result, 4_096);
  assert.deepEqual((first.a as Buffer).subarray(0, 4_096), bytes.subarray(0, 4_096));
  // articles 0-1 arrive and are published: the first read earns one article ahead (docs/streaming.md)
  await settle();
  const out = Buffer.alloc(16_000);
  assert.equal(native.readWindow(table, fh, 4_096, 11_904, out), 11_904, 'served without JS');
  assert.deepEqual(out.subarray(0, 11_904), bytes.subarray(4_096, 16_000));
  // The FUSE thread would now wake JS: the stream moves its read-ahead on and retires what is behind.
  ops.progress(fh);
  await settle();
  assert.equal(native.readWindow(table, fh, 16_000, 16_000, out), 16_000, 'read-ahead moved on (articles 2-4)');
  assert.deepEqual(out, bytes.subarray(16_000, 32_000));
  ops.progress(fh);
  await settle();
  assert.equal(native.readWindow(table, fh, 0, 100, out), -1, 'article 0 retired: more than 2 behind the reader');
  // Release retires everything the handle published.
  assert.equal((await ask(Op.release, PATH, fh)).result, 0);
  assert.equal(native.readWindow(table, fh, 36_096, 100, out), -1);
  assert.equal(ops.openHandles, 0);
});

test('the window stays bounded by the read-ahead, however far a reader gets', async () => {
  const { ask, table, ops } = opsWith(new MapSource(articles, 1));
  const fh = (await ask(Op.open, PATH, 0)).a as number;
  await ask(Op.read, PATH, fh, 0, 1_000);
  const out = Buffer.alloc(4_000);
  let published = 0;
  for (let off = 1_000; off < bytes.length; off += 4_000) {
    await settle(10);
    if (native.readWindow(table, fh, off, 4_000, out) < 0) await ask(Op.read, PATH, fh, off, 4_000);
    ops.progress(fh);
    let count = 0;
    for (let s = 0; s < bytes.length; s += 8_000) if (native.readWindow(table, fh, s, 1, out) === 1) count++;
    published = Math.max(published, count);
  }
  assert.ok(published <= 3 + 2 + 1, `at most read-ahead + slack articles published (saw ${published})`);
  assert.ok(native.stats(table)[0] > 20, 'most reads were native');
  await ask(Op.release, PATH, fh);
});

test('a read still waiting after readTimeoutMs answers ETIMEDOUT; release while one waits answers it EIO', async () => {
  const { ask, dispatch, answers } = opsWith(new MapSource(articles, 300), 50);
  const fh = (await ask(Op.open, PATH, 0)).a as number;
  assert.equal((await ask(Op.read, PATH, fh, 20_000, 1_000)).result, Errno.ETIMEDOUT);
  const fh2 = (await ask(Op.open, PATH, 0)).a as number;
  dispatch(Op.read, 9_001, fh2, 40_000, 10);
  assert.equal((await ask(Op.release, PATH, fh2)).result, 0);
  assert.equal(
    (await waitUntil('the waiting read answered', () => answers.get(9_001), { everyMs: 5 })).result,
    Errno.EIO,
  );
  assert.equal((await ask(Op.read, PATH, 999, 0, 10)).result, Errno.EBADF);
  await settle(400); // the timed-out read's article arrives: nothing answers twice (the answer hook asserts it)
  await ask(Op.release, PATH, fh);
});
