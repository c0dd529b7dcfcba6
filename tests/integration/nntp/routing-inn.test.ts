/**
 * Issue 33 item 1, routing by what a provider can have (docs/nntp.md "Routing"), against two real INN servers
 * holding different articles: the shared one ("A") and one of this file's own ("B"). Two providers on the same INN
 * stand for two resellers of one backbone (the same spool). Each test reads the pool's per-provider command counts
 * to show which providers were asked, and the bytes back to show they are the posted ones.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ArticleMissingError } from '../../../appliance/nntp/errors.js';
import { NntpPool } from '../../../appliance/nntp/pool.js';
import type { ProviderConfig, RequestOptions } from '../../../appliance/nntp/index.js';
import { freePort } from '../../support/free-port.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, stopInn, type InnServer } from '../../support/inn/server.js';

const rootB = `/var/tmp/spool-inn-routing-${process.pid}`;
let innA: InnServer;
let innB: InnServer;
const DAY = 86_400_000;

before(async () => {
  innA = await ensureInn();
  innB = await ensureInn(rootB);
});
after(async () => {
  await stopInn(rootB);
  rmSync(rootB, { recursive: true, force: true });
});

const onA = (id: string, over: Partial<ProviderConfig> = {}) => innProvider(innA, { id, max_connections: 4, ...over });
const onB = (id: string, over: Partial<ProviderConfig> = {}) => innProvider(innB, { id, max_connections: 4, ...over });

/** Posts a three-article file to one server only; its bytes and message ids. */
async function postTo(server: InnServer, name: string) {
  const data = randomBytes(3 * 50_000);
  const posted = await server.postFile(name, data, { articleSize: 50_000 });
  return { data, ids: posted.messageIds };
}

/** Reads every article through a new pool of `providers`; the bytes, and each provider's command and 430 counts. */
async function readWith(providers: ProviderConfig[], ids: string[], opts: RequestOptions = {}) {
  const pool = new NntpPool(providers, { coolingWaitMs: 0, maxAttempts: 2 });
  try {
    const parts = await Promise.all(ids.map((id) => pool.body(id, { priority: 'import', ...opts })));
    return { data: Buffer.concat(parts.map((p) => Buffer.from(p.data))), asked: counts(pool) };
  } finally {
    await pool.close();
  }
}

function counts(pool: NntpPool): Record<string, { commands: number; missing: number }> {
  return Object.fromEntries(
    pool.metrics().providers.map((p) => [p.id, { commands: p.commands, missing: p.missing_articles }]),
  );
}

/** The same articles on both servers: posted to B, then to A under the same message ids. */
async function postToBoth(name: string) {
  const data = randomBytes(2 * 40_000);
  const posted = await innB.postFile(name, data, { articleSize: 40_000 });
  await innA.postFile(name, data, { articleSize: 40_000, messageIds: posted.messageIds });
  return { data, ids: posted.messageIds };
}

test('backbone: after a 430 from one member, the other member of that backbone is not asked', async () => {
  const { data, ids } = await postTo(innB, 'Backbone.Only.On.B.bin');
  const grouped = await readWith(
    [onA('a1', { backbone: 'omicron' }), onA('a2', { backbone: 'omicron' }), onB('b')],
    ids,
  );
  assert.ok(grouped.data.equals(data));
  assert.deepEqual(grouped.asked, {
    a1: { commands: 3, missing: 3 },
    a2: { commands: 0, missing: 0 },
    b: { commands: 3, missing: 0 },
  });
  // Without a backbone group both resellers are asked: the group is what spared a2.
  const apart = await readWith([onA('a1'), onA('a2'), onB('b')], ids);
  assert.ok(apart.data.equals(data));
  assert.deepEqual(apart.asked.a2, { commands: 3, missing: 3 });
});

test('retention "never": a provider is not asked for an article older than it keeps', async () => {
  const { data, ids } = await postToBoth('Retention.Never.bin');
  const old = await readWith([onA('a', { retention_days: 30, retention_policy: 'never' }), onB('b')], ids, {
    postedAt: Date.now() - 100 * DAY,
  });
  assert.ok(old.data.equals(data));
  assert.deepEqual(old.asked, { a: { commands: 0, missing: 0 }, b: { commands: 2, missing: 0 } });
  // A young article: the first provider in the list serves it.
  const young = await readWith([onA('a', { retention_days: 30, retention_policy: 'never' }), onB('b')], ids, {
    postedAt: Date.now() - 2 * DAY,
  });
  assert.deepEqual(young.asked, { a: { commands: 2, missing: 0 }, b: { commands: 0, missing: 0 } });
});

test('retention "never": an article only on the out-of-retention provider is missing, never fetched from it', async () => {
  const { ids } = await postTo(innA, 'Retention.Never.Only.A.bin');
  const pool = new NntpPool([onA('a', { retention_days: 30, retention_policy: 'never' }), onB('b')], {
    coolingWaitMs: 0,
  });
  try {
    await assert.rejects(pool.body(ids[0]!, { postedAt: Date.now() - 100 * DAY }), ArticleMissingError);
    assert.deepEqual(counts(pool), { a: { commands: 0, missing: 0 }, b: { commands: 1, missing: 1 } });
  } finally {
    await pool.close();
  }
});

test('retention "last": asked after every other provider, and still serves what only it has', async () => {
  const both = await postToBoth('Retention.Last.bin');
  const first = await readWith([onA('a', { retention_days: 30 }), onB('b')], both.ids, {
    postedAt: Date.now() - 100 * DAY,
  });
  assert.ok(first.data.equals(both.data));
  assert.deepEqual(first.asked, { a: { commands: 0, missing: 0 }, b: { commands: 2, missing: 0 } });
  const onlyA = await postTo(innA, 'Retention.Last.Only.A.bin');
  const last = await readWith([onA('a', { retention_days: 30 }), onB('b')], onlyA.ids, {
    postedAt: Date.now() - 100 * DAY,
  });
  assert.ok(last.data.equals(onlyA.data));
  assert.deepEqual(last.asked, { a: { commands: 3, missing: 0 }, b: { commands: 3, missing: 3 } });
});

test('a block account is asked only after every primary missed', async () => {
  const both = await postToBoth('Block.Both.bin');
  const spared = await readWith([onA('blk', { block_account: true }), onB('p')], both.ids);
  assert.ok(spared.data.equals(both.data));
  assert.deepEqual(spared.asked, { blk: { commands: 0, missing: 0 }, p: { commands: 2, missing: 0 } });
  const onlyA = await postTo(innA, 'Block.Only.A.bin');
  const used = await readWith(
    [onA('blk', { block_account: true }), onB('p'), onB('p2', { is_backup_provider: true })],
    onlyA.ids,
  );
  assert.ok(used.data.equals(onlyA.data));
  assert.deepEqual(used.asked, {
    blk: { commands: 3, missing: 0 },
    p: { commands: 3, missing: 3 },
    p2: { commands: 3, missing: 3 },
  });
});

test('a required provider that is down holds the request back instead of spilling it to a block account', async () => {
  const { data, ids } = await postTo(innA, 'Required.bin');
  const closed = { host: '127.0.0.1', port: await freePort() };
  const req = { id: 'req', ...closed, username: 'u', password: 'p', max_connections: 2 };
  const pool = new NntpPool([onB('req', { ...req, required: true }), onA('blk', { block_account: true })], {
    coolingWaitMs: 0,
    maxAttempts: 2,
  });
  try {
    const err = await pool.body(ids[0]!).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error && !(err instanceof ArticleMissingError), String(err));
    assert.equal(counts(pool).blk!.commands, 0);
  } finally {
    await pool.close();
  }
  // Not required: its outage spills to the block account, which serves the article.
  const spilled = await readWith([onB('req', req), onA('blk', { block_account: true })], ids);
  assert.ok(spilled.data.equals(data));
  assert.equal(spilled.asked.blk!.commands, 3);
});
