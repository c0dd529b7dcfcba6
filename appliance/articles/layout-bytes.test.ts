import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutFromExtents, type FileLayout } from '../layout/index.js';
import {
  ArticleMissingError,
  CorruptArticleError,
  TimeoutError,
  type DecodedArticle,
  type RequestPriority,
} from '../nntp/index.js';
import { ArticleGoneError, ArticleUnreachableError, LayoutBytes, type ArticleClient } from './index.js';

const SIZE = 100;

/** Articles a0..aN of SIZE bytes, byte j of article i being (i * SIZE + j) % 251; some missing, damaged or down. */
function pool(faults: Record<string, Error> = {}): ArticleClient & { asked: { id: string; lane?: RequestPriority }[] } {
  const asked: { id: string; lane?: RequestPriority }[] = [];
  return {
    asked,
    async body(id, opts) {
      asked.push({ id, lane: opts?.priority });
      if (faults[id]) throw faults[id];
      const i = Number(id.slice(1));
      const data = Buffer.from(Array.from({ length: SIZE }, (_, j) => (i * SIZE + j) % 251));
      return { data, messageId: id } as unknown as DecodedArticle;
    },
    async stat() {
      return true;
    },
  };
}

/** A file over articles a0..a(n-1), each holding SIZE bytes. */
function file(n: number): FileLayout {
  return layoutFromExtents(
    Array.from({ length: n }, (_, i) => ({
      layout: { size: SIZE, segments: [{ messageId: `a${i}`, start: 0, end: SIZE }] },
      offset: 0,
      length: SIZE,
    })),
  );
}

const expected = (start: number, end: number) =>
  Buffer.from(Array.from({ length: end - start }, (_, k) => (start + k) % 251));
const signal = () => new AbortController().signal;

test('a range across articles comes back whole, fetched on the lane the caller names', async () => {
  for (const lane of ['import', 'repair'] as const) {
    const client = pool();
    const bytes = new LayoutBytes(client, lane, signal());
    assert.deepEqual(await bytes.read(file(4), 150, 320), expected(150, 320));
    assert.deepEqual(
      client.asked.map((a) => a.id),
      ['a1', 'a2', 'a3'],
    );
    assert.ok(client.asked.every((a) => a.lane === lane));
  }
});

test('bytes past the end of the file read as zeros; an empty range fetches nothing', async () => {
  const client = pool();
  const bytes = new LayoutBytes(client, 'repair', signal());
  const got = await bytes.read(file(2), 150, 260);
  assert.deepEqual(got.subarray(0, 50), expected(150, 200));
  assert.deepEqual(got.subarray(50), Buffer.alloc(60));
  assert.equal((await bytes.read(file(2), 10, 10)).length, 0);
  assert.equal(client.asked.length, 1);
});

test('an article missing or damaged everywhere is gone; an outage is not evidence', async () => {
  const faults = {
    a1: new ArticleMissingError('a1'),
    a2: new CorruptArticleError('CRC'),
    a3: new TimeoutError('slow'),
  };
  const bytes = new LayoutBytes(pool(faults), 'repair', signal());
  const gone = (why: string) => (err: unknown) => err instanceof ArticleGoneError && err.why === why;
  await assert.rejects(bytes.read(file(4), 100, 110), gone('missing'));
  await assert.rejects(bytes.read(file(4), 200, 210), gone('damaged'));
  await assert.rejects(
    bytes.read(file(4), 300, 310),
    (err) => err instanceof ArticleUnreachableError && err.cause instanceof TimeoutError,
  );
});

test('an article decoding to another size than the layout says is gone', async () => {
  const layout: FileLayout = { size: 150, segments: [{ messageId: 'a0', start: 0, end: 150 }] };
  await assert.rejects(
    new LayoutBytes(pool(), 'import', signal()).read(layout, 0, 10),
    (err) => err instanceof ArticleGoneError && err.why === 'size',
  );
});

test('a gone article stays known gone; an outage is asked again', async () => {
  const faults: Record<string, Error> = { a0: new ArticleMissingError('a0'), a1: new TimeoutError('slow') };
  const client = pool(faults);
  const bytes = new LayoutBytes(client, 'repair', signal());
  for (let i = 0; i < 2; i++) {
    await assert.rejects(bytes.read(file(2), 0, 10), ArticleGoneError);
    await assert.rejects(bytes.read(file(2), 100, 110), ArticleUnreachableError);
  }
  assert.deepEqual(
    client.asked.map((a) => a.id),
    ['a0', 'a1', 'a1'],
  );
  delete faults.a1;
  assert.deepEqual(await bytes.read(file(2), 100, 110), expected(100, 110));
});

test('in order, a read stops at the first gone article; the cache keeps the last articles asked', async () => {
  const client = pool({ a1: new ArticleMissingError('a1') });
  const bytes = new LayoutBytes(client, 'repair', signal(), { inOrder: true, maxCachedArticles: 2 });
  await assert.rejects(bytes.read(file(4), 0, 400), ArticleGoneError);
  assert.deepEqual(
    client.asked.map((a) => a.id),
    ['a0', 'a1'],
  );
  await bytes.read(file(4), 200, 400); // a2, a3: a0 and a1 drop
  await bytes.read(file(4), 300, 310); // cached
  await bytes.read(file(4), 0, 10); // fetched again
  assert.deepEqual(
    client.asked.map((a) => a.id),
    ['a0', 'a1', 'a2', 'a3', 'a0'],
  );
  assert.equal(bytes.fetched, 5);
});

test('reads inside a seeded head fetch nothing', async () => {
  const client = pool();
  const bytes = new LayoutBytes(client, 'import', signal());
  bytes.seed('a0', expected(0, 16));
  assert.deepEqual(await bytes.read(file(1), 2, 12), expected(2, 12));
  assert.equal(bytes.fetched, 0);
  assert.deepEqual(await bytes.read(file(1), 10, 30), expected(10, 30));
  assert.equal(bytes.fetched, 1);
});
