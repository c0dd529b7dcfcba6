import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { migrateToPg } from '../../../appliance/app/migrate-to-pg.js';
import { STORAGE_DOMAINS } from '../../../appliance/app/storage-domains.js';
import { repairStorage } from '../../../appliance/repair/repair.storage.js';
import type { PgOpening } from '../../../appliance/store/index.js';
import { ConfigService } from '../../../appliance/config/index.js';
import type { FileLayout } from '../../../appliance/layout/index.js';
import { createLogger } from '../../../appliance/logging/logger.js';
import type { KeptPar2File } from '../../../appliance/repair/index.js';
import { PgPar2FileStore } from '../../../appliance/repair/par2-files-pg.store.js';
import { LmdbPar2FileStore } from '../../../appliance/repair/par2-files.store.js';
import { DiskPatchStore } from '../../../appliance/repair/patch.store.js';
import { copyRepairToPg } from '../../../appliance/repair/repair.copy.js';
import { REPAIR_PG_MIGRATIONS } from '../../../appliance/repair/repair-pg.migrations.js';
import { openPgRepairStores } from '../../../appliance/repair/repair-pg.store.js';
import { openStore } from '../../../appliance/store/index.js';
import { migratePg, openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { startPostgres, type PostgresServer } from '../../support/postgres/server.js';

let server: PostgresServer;
const root = mkdtempSync(join(tmpdir(), 'spool-repair-pg-copy-'));
before(async () => (server = await startPostgres()));
after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const logger = createLogger('test', 'error');

async function migrated(): Promise<PgDb> {
  const db = await openPgDb(await server.createDatabase());
  await migratePg(db, { repair: REPAIR_PG_MIGRATIONS });
  return db;
}

/** A posted file's layout as the importer builds it: whole articles, `number=`/`bytes=`, its post. */
function layout(name: string, articles: number, articleSize = 716_800): FileLayout {
  return {
    size: articles * articleSize - 1234,
    segments: Array.from({ length: articles }, (_, i) => ({
      messageId: `part${i + 1}of${articles}.${name}@news.example`,
      start: i * articleSize,
      end: Math.min((i + 1) * articleSize, articles * articleSize - 1234),
      number: i + 1,
      bytes: 739_000 + (i % 7),
      post: 0,
    })),
    groups: ['alt.binaries.test'],
    posts: [
      { poster: 'poster <p@example>', date: 1_700_000_000, subject: `"${name}" yEnc`, groups: ['alt.binaries.test'] },
    ],
  };
}

const kept: KeptPar2File[] = [
  { name: 'set.par2', size: 40_000, layout: layout('set.par2', 1, 40_000 + 1234) },
  { name: 'set.vol00+10.par2', size: 7 * 716_800 - 1234, layout: layout('set.vol00+10.par2', 7) },
  { name: 'x.part01.rar', size: 20 * 716_800 - 1234, layout: layout('x.part01.rar', 20), volume: true },
];

test('kept PAR2 files come back from PostgreSQL exactly as LMDB gives them back; an empty list stays a list', async () => {
  const db = await migrated();
  const store = openStore({ rootPath: join(root, 'par2') });
  try {
    const lmdb = new LmdbPar2FileStore(store);
    const pg = new PgPar2FileStore(db);
    for (const s of [lmdb, pg]) {
      await s.put(7, kept);
      await s.put(8, []);
      await s.put(9, kept.slice(0, 1));
      await s.put(9, kept.slice(1)); // a put replaces the queue item's list
    }
    for (const id of [7, 8, 9, 10]) assert.deepEqual(await pg.get(id), await lmdb.get(id), `queue item ${id}`);
    assert.deepEqual(await pg.get(8), []);
    assert.equal(await pg.get(10), undefined);
    assert.equal((await pg.get(9))?.[1]?.volume, true);
    assert.ok(!('volume' in (await pg.get(9))![0]!), 'an absent flag stays absent');
    await pg.remove(7);
    assert.equal(await pg.get(7), undefined);
    const packed = await db.query<{ n: number }>('SELECT sum(length(layout))::int AS n FROM repair_par2_files');
    assert.ok(packed.rows[0]!.n < 2000, `layouts are stored packed (${packed.rows[0]!.n} bytes)`);
  } finally {
    await store.close();
    await db.close();
  }
});

test('an LMDB install moves to PostgreSQL: patch records, every blob byte and the kept PAR2 files, checked', async () => {
  const dir = join(root, 'install');
  const patchDir = join(dir, 'patches');
  const store = openStore({ rootPath: dir });
  const db = await migrated();
  try {
    const disk = new DiskPatchStore(store, patchDir);
    const big = randomBytes(2_500_000);
    await disk.add('A', '/complete/movies/A/a.mkv', [{ start: 5000, data: big }]);
    await disk.add('A', '/complete/movies/A/a.mkv', [{ start: 9_000_000, data: Buffer.alloc(300, 7) }]); // a second repair
    await disk.add('B', '/complete/tv/B/b.mkv', [{ start: 0, data: Buffer.alloc(10, 1) }]);
    await new LmdbPar2FileStore(store).put(3, kept);
    writeFileSync(join(patchDir, 'orphan.bin'), Buffer.alloc(5)); // a killed repair's blob: not copied
    const messages: string[] = [];
    const [report] = await copyRepairToPg(patchDir)(store, db, (m) => messages.push(m));
    assert.deepEqual(report, { scope: 'repair', records: 3, bytes: 2_500_310 });
    assert.ok(messages.some((m) => /records checked/.test(m)));
    const { patches, par2Files } = await openPgRepairStores(db, logger);
    try {
      assert.deepEqual(
        patches.list().sort((a, b) => a.layoutId.localeCompare(b.layoutId)),
        disk.list().sort((a, b) => a.layoutId.localeCompare(b.layoutId)),
      );
      assert.ok(Buffer.from(await patches.read('A', 5000, 5000 + big.length)).equals(big));
      assert.deepEqual([...(await patches.read('A', 9_000_298, 9_000_300))], [7, 7]);
      assert.equal(patches.usedBytes(), disk.usedBytes());
      assert.deepEqual(await par2Files.get(3), kept);
    } finally {
      patches.close();
    }
  } finally {
    await store.close();
    await db.close();
  }
});

test('a blob missing from the patch directory stops the copy with a clear error', async () => {
  const dir = join(root, 'broken');
  const patchDir = join(dir, 'patches');
  const store = openStore({ rootPath: dir });
  const db = await migrated();
  try {
    const disk = new DiskPatchStore(store, patchDir);
    await disk.add('C', '/complete/c.mkv', [{ start: 0, data: Buffer.alloc(10, 1) }]);
    rmSync(join(patchDir, disk.list()[0]!.ranges[0]!.blob));
    await assert.rejects(
      copyRepairToPg(patchDir)(store, db, () => undefined),
      /patch blob .* of \/complete\/c\.mkv cannot be read/,
    );
  } finally {
    await store.close();
    await db.close();
  }
});

test('spool migrate moves the repair domain of a data dir (patches under <data>/patches); the slot serves it', async () => {
  const dataDir = join(root, 'datadir');
  const config = await ConfigService.open({ dataDir, env: {}, logger });
  const store = openStore({ rootPath: resolve(dataDir, config.get().metadata.root_path) });
  const disk = new DiskPatchStore(store, join(dataDir, 'patches'));
  await disk.add('D', '/complete/d.mkv', [{ start: 10, data: Buffer.alloc(1000, 9) }]);
  await new LmdbPar2FileStore(store).put(4, kept.slice(0, 2));
  await store.close();
  const to = await server.createDatabase();
  const lines: string[] = [];
  const domains = STORAGE_DOMAINS.filter((d) => d.scope === 'repair');
  const out = await migrateToPg({ from: dataDir, to, domains, print: (l) => lines.push(l) });
  assert.deepEqual(out.failures, []);
  assert.ok(lines.includes('repair: 2 records, 1000 bytes, checked'), lines.join('\n'));
  const db = await openPgDb(to);
  const local = openStore({ rootPath: join(root, 'node') });
  const closers: (() => void | Promise<void>)[] = [];
  try {
    const ctx: PgOpening = { db, local, dataDir, logger, onClose: (c) => void closers.push(c) };
    const { patches, par2Files } = await repairStorage.pg.open(ctx);
    assert.deepEqual([...(await patches.read('D', 1008, 1010))], [9, 9]);
    assert.equal((await par2Files.get(4))?.length, 2);
    assert.equal(closers.length, 1, 'the storage module stops its listener when the stores close');
  } finally {
    for (const c of closers) await c();
    await db.close();
    await local.close();
  }
});
