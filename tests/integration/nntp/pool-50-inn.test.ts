/**
 * The pool at the configuration's most connections (max_connections 50) against the test INN, once (issue 21: the
 * other tests and benches use 8 at most). INN forks one nnrpd per reader and limits neither their number nor their
 * rate here (tests/support/inn/config.ts: `maxconnections: 0`; innd's -X is 0 by default). A relay in front of INN
 * counts the connections the pool really opened.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { NntpPool } from '../../../appliance/nntp/pool.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import type { PostedFile } from '../../support/inn/poster.js';
import { Relay } from '../../support/tcp-relay.js';

let inn: InnServer;
let relay: Relay;
let pool: NntpPool;

before(async () => {
  inn = await ensureInn();
  relay = new Relay({ host: inn.host, port: inn.port });
  await relay.start();
  const provider = innProvider(inn, { host: '127.0.0.1', port: relay.port, max_connections: 50 });
  pool = new NntpPool([provider], { keepaliveMs: 0 });
});
after(async () => {
  await pool?.close();
  await relay?.stop();
});

/** Every article of `posted` at once; each must decode to its own bytes of `file`. */
async function readAll(posted: PostedFile, file: Buffer): Promise<void> {
  const parts = await Promise.all(posted.segments.map((s) => pool.body(s.messageId)));
  parts.forEach((p, i) => {
    const s = posted.segments[i]!;
    assert.ok(p.data.equals(file.subarray(s.offset, s.offset + s.size)), `article ${i + 1} byte-exact`);
  });
}

test('max_connections 50: a batch of articles read over 50 connections open at once, every byte right', async () => {
  const file = randomBytes(160 * 40_000 + 321);
  const posted = await inn.postFile('Fifty.Connections.bin', file, { articleSize: 40_000 });
  assert.equal(posted.segments.length, 161);
  // One batch opens a connection per waiting article up to the limit; should the link measure "long" midway (the
  // pool then pipelines first and opens beside), a few more batches fill it. Bounded, no clock.
  for (let round = 0; round < 5 && relay.counts.maxActive < 50; round++) await readAll(posted, file);
  assert.equal(relay.counts.maxActive, 50, 'connections open at once');
  assert.equal(relay.counts.relayed, 50, 'never more than 50 opened');
  const m = pool.metrics();
  assert.equal(m.active_connections, 50);
  assert.equal(m.providers[0]!.errors, 0);
  assert.equal(m.providers[0]!.allowed_connections, null, 'INN refused none');
  await readAll(posted, file);
  assert.equal(relay.counts.relayed, 50, 'the next batch reuses them');
});
