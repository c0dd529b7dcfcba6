import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArticleCache } from './article-cache.js';
import { ArticleFetcher, type ArticleSource } from './article-fetcher.js';

/** A source whose one fetch waits until released, and that says whether that fetch is on the wire yet. */
function gatedSource(onWire: boolean) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const signals: AbortSignal[] = [];
  const source: ArticleSource = {
    fetch: async (_id, { signal }) => {
      signals.push(signal);
      await gate;
      if (signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      return new Uint8Array([1, 2, 3]);
    },
    onWire: () => onWire,
  };
  return { source, signals, release: () => release() };
}

const settle = () => new Promise((r) => setImmediate(r));

test('a fetch on the wire that every reader left completes into the cache, and a later reader needs no second fetch', async () => {
  const { source, signals, release } = gatedSource(true);
  const fetcher = new ArticleFetcher(source, new ArticleCache(1 << 20));
  const leave = new AbortController();
  const first = fetcher.get('a@t', leave.signal, 3);
  leave.abort(); // a seek: the reader that asked for it is gone
  await assert.rejects(first, { name: 'AbortError' });
  assert.equal(signals[0]!.aborted, false, 'its bytes come anyway: the fetch is not cancelled');
  release();
  await settle();
  assert.ok(fetcher.cache.get('a@t'), 'landed in the cache');
  const lease = await fetcher.get('a@t', new AbortController().signal, 3);
  assert.deepEqual([...lease.data], [1, 2, 3]);
  lease.release();
  assert.equal(fetcher.fetches, 1, 'one fetch in all');
});

test('a fetch still waiting for a connection is cancelled when its last reader leaves', async () => {
  const { source, signals, release } = gatedSource(false);
  const fetcher = new ArticleFetcher(source, new ArticleCache(1 << 20));
  const leave = new AbortController();
  const first = fetcher.get('b@t', leave.signal, 3);
  leave.abort();
  await assert.rejects(first, { name: 'AbortError' });
  assert.equal(signals[0]!.aborted, true, 'nothing was sent: the request is withdrawn');
  release();
  await settle();
  assert.equal(fetcher.cache.get('b@t'), undefined);
});

test('a source that cannot tell (no onWire) keeps the old rule: the last reader leaving cancels the fetch', async () => {
  const { source, signals, release } = gatedSource(true);
  delete source.onWire;
  const fetcher = new ArticleFetcher(source, new ArticleCache(1 << 20));
  const leave = new AbortController();
  const first = fetcher.get('c@t', leave.signal, 3);
  leave.abort();
  await assert.rejects(first, { name: 'AbortError' });
  assert.equal(signals[0]!.aborted, true);
  release();
});

test('a fetch kept only for the cache is told so, and told again when a reader comes back for it', async () => {
  const { source, release } = gatedSource(true);
  const told: Array<[string, boolean]> = [];
  source.leftBehind = (id, left) => told.push([id, left]);
  const fetcher = new ArticleFetcher(source, new ArticleCache(1 << 20));
  const leave = new AbortController();
  const first = fetcher.get('d@t', leave.signal, 3);
  leave.abort();
  await assert.rejects(first, { name: 'AbortError' });
  assert.deepEqual(told, [['d@t', true]], 'nobody waits: the source need not try it elsewhere');
  const again = fetcher.get('d@t', new AbortController().signal, 3); // joins the fetch still on the wire
  assert.deepEqual(told, [
    ['d@t', true],
    ['d@t', false],
  ]);
  release();
  const lease = await again;
  assert.deepEqual([...lease.data], [1, 2, 3]);
  lease.release();
  assert.equal(fetcher.fetches, 1);
});
