/**
 * `npm run bench -- queue`: the queue's port on LMDB and on PostgreSQL (a real server, tests/support/postgres/)
 * with the same 100,000 items (QUEUE_BENCH_ITEMS), four in five of them history as a long-running install keeps:
 * the console's list pages, search, the SABnzbd history, counts, the runner's claim and an insert with its NZB.
 * Median and p99 of 30 calls each, after 3 unmeasured (docs/performance.md, "The queue on PostgreSQL").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgQueue } from '../appliance/importer/queue-pg.store.js';
import { insertItems } from '../appliance/importer/queue-pg-rows.store.js';
import { LmdbQueueStore } from '../appliance/importer/queue-lmdb.store.js';
import type { QueueStore } from '../appliance/importer/queue.port.js';
import { QueueTables } from '../appliance/importer/queue.store.js';
import type { QueueRecord } from '../appliance/importer/queue.types.js';
import { openStore } from '../appliance/store/index.js';
import { openPgDb } from '../appliance/store/pg/index.js';
import { startPostgres } from '../tests/support/postgres/server.js';

const ITEMS = Number(process.env.QUEUE_BENCH_ITEMS ?? 100_000);
const RUNS = 30;
const STATUSES = ['completed', 'completed', 'completed', 'failed', 'pending'] as const;

function item(i: number): QueueRecord {
  const status = STATUSES[i % STATUSES.length]!;
  const name = `Show.Name.${i}.S01E${String(i % 30).padStart(2, '0')}.1080p.WEB`;
  return {
    id: i + 1,
    nzbPath: `/nzb/${name}.nzb`,
    name,
    category: i % 3 === 0 ? null : 'tv',
    priority: 0,
    status,
    targetPath: null,
    fileSize: 1_000_000,
    retryCount: 0,
    maxRetries: 3,
    errorMessage: status === 'failed' ? 'articles missing' : null,
    nextAttemptAt: null,
    contentHash: `hash-${i}`,
    createdAt: 1_700_000_000_000 + i * 1000,
    updatedAt: 1_700_000_000_000 + i * 1000,
    startedAt: null,
    completedAt: status === 'completed' ? 1_700_000_000_000 + i * 1000 : null,
  };
}

type Op = [label: string, run: (queue: QueueStore, i: number) => Promise<unknown>];

const OPS: Op[] = [
  ['list: newest 50', (q) => q.list({ limit: 50, offset: 0 })],
  ['list: failed, page 3 of 50', (q) => q.list({ limit: 50, offset: 100, status: 'failed' })],
  ['search: one word (every item)', (q) => q.list({ limit: 50, offset: 0, search: 'show' })],
  ['search: two words (11 items)', (q) => q.list({ limit: 50, offset: 0, search: 'name 1234' })],
  ['history: newest 60', (q) => q.history({ limit: 60, offset: 0 })],
  ['history: category tv, 60', (q) => q.history({ category: 'tv', limit: 60, offset: 0 })],
  ['counts', (q) => q.counts()],
  ['claimNext', (q, i) => q.claimNext(1, (r) => ({ ...r, status: 'processing', updatedAt: 2e12 + i }))],
  [
    'insert (100 KB NZB)',
    (q, i) => q.insert({ ...item(ITEMS + i), status: 'pending' }, { packed: Buffer.alloc(100_000, i), hash: `n${i}` }),
  ],
];

async function measure(queue: QueueStore, log: (m: string) => void, name: string): Promise<string[]> {
  const out: string[] = [];
  let n = 0;
  for (const [label, run] of OPS) {
    for (let i = 0; i < 3; i++) await run(queue, n++);
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await run(queue, n++);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    out.push(`${ms[Math.floor(RUNS / 2)]!.toFixed(2)} / ${ms[Math.ceil(RUNS * 0.99) - 1]!.toFixed(2)}`);
    log(`${name} ${label}: ${out[out.length - 1]} ms`);
  }
  return out;
}

export async function run(log: (m: string) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-queue-bench-'));
  const store = openStore({ rootPath: dir });
  const server = await startPostgres();
  const db = await openPgDb(await server.createDatabase());
  try {
    log(`seeding ${ITEMS} items in each store`);
    const tables = new QueueTables(store);
    const pg = await openPgQueue(db);
    for (let b = 0; b < ITEMS; b += 1000) {
      const batch = Array.from({ length: Math.min(1000, ITEMS - b) }, (_, i) => item(b + i));
      store.transaction(() => batch.forEach(({ id: _id, ...draft }) => tables.insert(draft)));
      await db.tx((tx) => insertItems(tx, batch));
    }
    await db.query(`SELECT setval('queue_item_ids', $1)`, [ITEMS]);
    await db.query('VACUUM ANALYZE'); // what autovacuum does to a table this size
    const lmdb = await measure(new LmdbQueueStore(store), log, 'lmdb');
    const postgres = await measure(pg, log, 'postgresql');
    return [
      `${ITEMS} items (${(ITEMS * 0.8).toFixed(0)} in the history), one process, PostgreSQL on loopback.`,
      '',
      '| operation | LMDB p50 / p99 (ms) | PostgreSQL p50 / p99 (ms) |',
      '| --- | --- | --- |',
      ...OPS.map(([label], i) => `| ${label} | ${lmdb[i]} | ${postgres[i]} |`),
    ].join('\n');
  } finally {
    await db.close();
    await server.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
