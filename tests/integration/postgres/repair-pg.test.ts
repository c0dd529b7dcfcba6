import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createLogger } from '../../../appliance/logging/logger.js';
import { PATCH_CHUNK_BYTES } from '../../../appliance/repair/patch-pg-blobs.store.js';
import { PgPatchStore } from '../../../appliance/repair/patch-pg.store.js';
import { DiskPatchStore } from '../../../appliance/repair/patch.store.js';
import { REPAIR_PG_MIGRATIONS } from '../../../appliance/repair/repair-pg.migrations.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';
import { patchStoreContract } from '../../support/repair/patch-store-contract.js';
import { waitUntil } from '../../support/wait.js';

let server: PostgresServer;
const root = mkdtempSync(join(tmpdir(), 'spool-repair-pg-'));
before(async () => (server = await startPostgres()));
after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const logger = createLogger('test', 'error');

/** `n` nodes on one fresh, migrated database. */
async function nodes(n: number): Promise<PgDb[]> {
  const url = await server.createDatabase();
  const dbs = await Promise.all(Array.from({ length: n }, (_, i) => openPgDb(url, { applicationName: `node${i}` })));
  await migratePg(dbs[0]!, { repair: REPAIR_PG_MIGRATIONS });
  return dbs;
}

async function blobRows(db: PgDb): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM repair_patch_blobs')).rows[0]!.n;
}

/** Polls `ok` every 20 ms for at most 5 s (a notification crossing to another node). */
async function eventually(ok: () => boolean, what: string): Promise<void> {
  await waitUntil(what, ok, { everyMs: 20 });
}

let disks = 0;
patchStoreContract('disk', async () => {
  const dir = join(root, `disk-${++disks}`);
  const store = openStore({ rootPath: dir });
  return {
    patches: new DiskPatchStore(store, join(dir, 'patches')),
    reopen: async () => new DiskPatchStore(store, join(dir, 'patches')),
    blobs: async () => readdirSync(join(dir, 'patches')).length,
    close: () => store.close(),
  };
});

patchStoreContract('postgres', async () => {
  const [db] = await nodes(1);
  const opened: PgPatchStore[] = [await PgPatchStore.open(db!, logger)];
  return {
    patches: opened[0]!,
    reopen: async () => opened[opened.push(await PgPatchStore.open(db!, logger)) - 1]!,
    blobs: () => blobRows(db!),
    close: async () => {
      for (const s of opened) s.close();
      await db!.close();
    },
  };
});

test('a patch committed on one node is served byte-exact by another, across chunk boundaries', async () => {
  const [a, b] = await nodes(2);
  const [pa, pb] = await Promise.all([PgPatchStore.open(a!, logger), PgPatchStore.open(b!, logger)]);
  try {
    // 2.5 chunks of file bytes in two ranges, written in strips out of order as the streaming solve does
    const file = randomBytes(3 * PATCH_CHUNK_BYTES);
    const ranges = [
      { start: 1000, end: 1000 + 2 * PATCH_CHUNK_BYTES },
      { start: 2 * PATCH_CHUNK_BYTES + 5000, end: 2 * PATCH_CHUNK_BYTES + 5000 + PATCH_CHUNK_BYTES / 2 },
    ];
    const w = await pa.open('X', '/complete/movies/X/x.mkv', ranges);
    const strip = 300_000;
    for (const from of [1, 0])
      for (const r of ranges)
        for (let at = r.start + from * strip; at < r.end; at += 2 * strip)
          await w.write(at, file.subarray(at, Math.min(r.end, at + strip)));
    await w.commit();
    await eventually(() => pb.has('X'), 'node b learns of the patch');
    const edge = 1000 + PATCH_CHUNK_BYTES; // the first range's first chunk ends here in the blob
    assert.ok(pb.covers('X', edge - 10, edge + 10) && pb.covers('X', 1000, 1000 + 2 * PATCH_CHUNK_BYTES));
    assert.ok(!pb.covers('X', 999, 1010) && !pb.covers('X', 1000, 2 * PATCH_CHUNK_BYTES + 5001));
    assert.ok(Buffer.from(await pb.read('X', edge - 10, edge + 10)).equals(file.subarray(edge - 10, edge + 10)));
    for (const r of ranges)
      assert.ok(Buffer.from(await pb.read('X', r.start, r.end)).equals(file.subarray(r.start, r.end)), 'byte-exact');
    assert.equal(pb.usedBytes(), pa.usedBytes());
    assert.equal(pb.usedBytes(), 2.5 * PATCH_CHUNK_BYTES);
    const rows = await a!.query<{ n: number }>('SELECT count(*)::int AS n FROM repair_patch_chunks');
    assert.ok(rows.rows[0]!.n >= 3, 'the blob is stored in rows of at most 1 MiB');
  } finally {
    pa.close();
    pb.close();
    await Promise.all([a!.close(), b!.close()]);
  }
});

test('a writer aborted or never committed is never visible; its chunks go, at once or by the sweep', async () => {
  const [a, b, c] = await nodes(3);
  const [pa, pb] = await Promise.all([PgPatchStore.open(a!, logger), PgPatchStore.open(b!, logger)]);
  let pc: PgPatchStore | undefined;
  try {
    const aborted = await pa.open('AB', '/complete/a.mkv', [{ start: 0, end: 10 }]);
    await aborted.write(0, Buffer.alloc(10, 1));
    await aborted.abort();
    const crashed = await pa.open('CR', '/complete/c.mkv', [{ start: 0, end: 5 << 20 }]);
    await crashed.write(0, Buffer.alloc(5 << 20, 2)); // past the writer's 4 MiB: chunk rows are in the database
    assert.equal(await blobRows(a!), 1, 'the aborted blob is gone at once; the open one is pending');
    // a later commit on node a reaches b: everything a did before it has been seen
    await pa.add('OK', '/complete/ok.mkv', [{ start: 0, data: Buffer.alloc(4, 3) }]);
    await eventually(() => pb.has('OK'), 'node b learns of the later patch');
    for (const p of [pa, pb]) assert.ok(!p.has('AB') && !p.has('CR') && !p.covers('CR', 0, 1));
    // node c starts as if node a had died mid-repair: the pending blob is swept, and can no longer be committed
    pc = await PgPatchStore.open(c!, logger, { pendingGraceMs: 0 });
    assert.equal(await blobRows(a!), 1, 'only the committed blob is left');
    await assert.rejects(crashed.commit(), /gone \(swept or aborted\)/);
    assert.ok(!pa.has('CR') && !pb.has('CR') && !pc.has('CR'));
    assert.deepEqual(
      pc.list().map((p) => p.layoutId),
      ['OK'],
    );
  } finally {
    for (const p of [pa, pb, pc]) p?.close();
    await Promise.all([a!.close(), b!.close(), c!.close()]);
  }
});

test('moves and removals on one node are seen by the other; a missed notification is caught up on reconnect', async () => {
  const [a, b] = await nodes(2);
  const [pa, pb] = await Promise.all([PgPatchStore.open(a!, logger), PgPatchStore.open(b!, logger)]);
  try {
    await pa.add('M', '/complete/tv/Show/e1.mkv', [{ start: 0, data: Buffer.alloc(10, 3) }]);
    await pa.add('N', '/complete/tv/Other/e2.mkv', [{ start: 0, data: Buffer.alloc(20, 4) }]);
    await eventually(() => pb.has('M') && pb.has('N'), 'b sees both patches');
    await pb.movePath('/complete/tv/Show', '/complete/tv/Show S01');
    const pathOf = (s: PgPatchStore, id: string) => s.list().find((p) => p.layoutId === id)?.path;
    await eventually(() => pathOf(pa, 'M') === '/complete/tv/Show S01/e1.mkv', 'a sees the move made on b');
    assert.equal(await pa.removePaths(['/complete/tv/Show']), 0);
    assert.equal(await pa.removePaths(['/complete/tv/Show S01']), 1);
    await eventually(() => !pb.has('M'), 'b sees the removal made on a');
    assert.equal(pb.usedBytes(), 20);
    assert.equal(await blobRows(a!), 1, "M's blob went with its record");
    // a row written with no notification (as if it were sent while b's listening connection was down)
    await a!.query(
      `INSERT INTO repair_patches (layout_id, path, ranges, bytes, at) SELECT 'N2', '/complete/n2.mkv', ranges, bytes, at
       FROM repair_patches WHERE layout_id = 'N'`,
    );
    await b!.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'
      AND application_name = 'node1'`);
    await eventually(() => pb.has('N2'), 'b reads the index again once its listening connection is back');
    assert.equal(pb.usedBytes(), 40);
  } finally {
    pa.close();
    pb.close();
    await Promise.all([a!.close(), b!.close()]);
  }
});

test('a node fetches each chunk once: reads at the same time share a fetch, later ones come from memory', async () => {
  const [a, b] = await nodes(2);
  let fetches = 0;
  const counted: PgDb = {
    ...b!,
    query: (text, params) => {
      if (text.includes('data FROM repair_patch_chunks')) fetches++;
      return b!.query(text, params);
    },
  };
  const pa = await PgPatchStore.open(a!, logger);
  const pb = await PgPatchStore.open(counted, logger);
  try {
    const file = randomBytes(2 * PATCH_CHUNK_BYTES);
    await pa.add('R', '/complete/r.mkv', [{ start: 0, data: file }]);
    await eventually(() => pb.has('R'), 'b learns of the patch');
    const article = 700_000;
    const reads = await Promise.all([0, 1, 2].map((i) => pb.read('R', i * 1000, i * 1000 + article)));
    reads.forEach((r, i) => assert.ok(Buffer.from(r).equals(file.subarray(i * 1000, i * 1000 + article))));
    assert.equal(fetches, 1, 'three reads inside the first chunk: one fetch');
    assert.ok(Buffer.from(await pb.read('R', 500, 600_000)).equals(file.subarray(500, 600_000)));
    assert.equal(fetches, 1, 'read again from memory');
    const across = await pb.read('R', PATCH_CHUNK_BYTES - 10, PATCH_CHUNK_BYTES + 10);
    assert.ok(Buffer.from(across).equals(file.subarray(PATCH_CHUNK_BYTES - 10, PATCH_CHUNK_BYTES + 10)));
    assert.equal(fetches, 2, 'only the second chunk is fetched');
  } finally {
    pa.close();
    pb.close();
    await Promise.all([a!.close(), b!.close()]);
  }
});
