import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AbortedError,
  ArticleMissingError,
  CorruptArticleError,
  NoProviderError,
  type NntpError,
  TimeoutError,
  type DecodedArticle,
  type RequestPriority,
} from '../nntp/index.js';
import { bodyOutcome, probeAvailability, ProbeOutageError, statMany, type ArticleClient } from './index.js';

/** A pool stand-in: per message id, an answer or an error; records the lane of every request. */
function fakeClient(answers: Record<string, 'ok' | Error>, size = 10): ArticleClient & { lanes: RequestPriority[] } {
  const lanes: RequestPriority[] = [];
  const answer = (id: string) => {
    const a = answers[id] ?? 'ok';
    if (a instanceof Error) throw a;
  };
  return {
    lanes,
    async stat(id, opts) {
      lanes.push(opts?.priority ?? 'import');
      try {
        answer(id);
        return true;
      } catch (err) {
        if (err instanceof ArticleMissingError) return false;
        throw err;
      }
    },
    async body(id, opts) {
      lanes.push(opts?.priority ?? 'import');
      answer(id);
      return { data: Buffer.alloc(size) } as DecodedArticle;
    },
  };
}

const signal = new AbortController().signal;

test('an outage is never an answer about the article; 430 and a bad CRC are', async () => {
  const client = fakeClient({
    a: new ArticleMissingError('a'),
    b: new TimeoutError('slow'),
    c: new NoProviderError(),
    d: new CorruptArticleError('crc mismatch'),
  });
  const stats = await statMany(client, ['a', 'b', 'c', 'ok'], 'health', signal);
  assert.deepEqual(
    stats.map((o) => o.kind),
    ['missing', 'unreachable', 'unreachable', 'present'],
  );
  assert.equal((await bodyOutcome(client, 'd', 'health', signal)).kind, 'damaged');
  assert.equal((await bodyOutcome(client, 'ok', 'health', signal, 11)).kind, 'damaged');
  assert.equal((await bodyOutcome(client, 'ok', 'health', signal, 10)).kind, 'present');
  assert.ok(
    client.lanes.every((l) => l === 'health'),
    'every request on the lane asked for',
  );
  await assert.rejects(bodyOutcome(fakeClient({ x: new AbortedError() }), 'x', 'health', signal), AbortedError);
});

test('the probe reports missing samples, and refuses to judge during an outage', async () => {
  const ids = Array.from({ length: 10 }, (_, i) => `m${i}`);
  const missing = fakeClient({ m9: new ArticleMissingError('m9') });
  const findings = await probeAvailability(missing, [{ name: 'f.mkv', count: ids.length, messageId: (i) => ids[i]! }], {
    percentage: 100,
    lane: 'import',
    signal,
  });
  assert.deepEqual(findings, [{ name: 'f.mkv', checked: 10, missing: 1, total: 10, firstMissing: 'm9' }]);
  assert.ok(missing.lanes.every((l) => l === 'import'));
  const down = fakeClient({ m9: new ArticleMissingError('m9'), m3: new TimeoutError('timed out') });
  await assert.rejects(
    probeAvailability(down, [{ name: 'f.mkv', count: ids.length, messageId: (i) => ids[i]! }], {
      percentage: 100,
      lane: 'import',
      signal,
    }),
    ProbeOutageError,
  );
});

test("the pool's STAT batch gives the same outcomes as one stat per article; an abort still throws", async () => {
  const answers: Record<string, 'ok' | Error> = {
    a: new ArticleMissingError('a'),
    b: new TimeoutError('slow'),
    c: new NoProviderError(),
  };
  const single = fakeClient(answers);
  const windows: number[] = [];
  const batched: ArticleClient = {
    ...fakeClient(answers),
    async statBatch(ids, opts) {
      windows.push(opts.window ?? 0);
      return Promise.all(
        ids.map((id) =>
          single.stat(id, opts).then(
            (found) => found,
            (err: NntpError) => err,
          ),
        ),
      );
    },
  };
  const ids = ['a', 'b', 'c', 'ok'];
  const viaBatch = await statMany(batched, ids, 'health', signal, 48);
  assert.deepEqual(viaBatch, await statMany(fakeClient(answers), ids, 'health', signal));
  assert.deepEqual(
    viaBatch.map((o) => o.kind),
    ['missing', 'unreachable', 'unreachable', 'present'],
  );
  assert.deepEqual(windows, [48], "one batch, with the caller's concurrency as its window");
  const aborting: ArticleClient = { ...fakeClient({}), statBatch: () => Promise.reject(new AbortedError()) };
  await assert.rejects(statMany(aborting, ids, 'health', signal), AbortedError);
});
