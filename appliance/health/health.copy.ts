import { isDeepStrictEqual } from 'node:util';
import { schemaVersion, type Key } from '../store/index.js';
import { migratePg, type CopyToPg, type PgDb, type PgTx } from '../store/pg/index.js';
import { HEALTH_PG_MIGRATIONS } from './health-pg.migrations.js';
import { columnsOf, COLUMNS } from './health-pg.sql.js';
import { PgHealthStore } from './health-pg.store.js';
import { healthMigrations } from './health.migrations.js';
import { LmdbHealthStore } from './health.store.js';
import type { HealthRecord } from './health.types.js';

const BATCH = 500;

/**
 * The health domain's part of moving an install (`spool migrate`): the records with their ids (the id sequence set
 * past the LMDB store's next id, so no id is given twice) and the in-step marker, from the LMDB databases
 * health.store.ts uses (which must be at this Spool's health schema: the LMDB install is only read) into the empty
 * PostgreSQL database. Then every record is read back through the PostgreSQL store and compared; a difference throws.
 */
export const copyHealthToPg: CopyToPg = async (from, to, progress) => {
  await migratePg(to, { health: HEALTH_PG_MIGRATIONS });
  const [version, newest] = [schemaVersion(from, 'health'), healthMigrations(() => undefined).length];
  if (version !== newest)
    throw new Error(
      `health: the LMDB store's health schema is version ${version}, this Spool's is ${newest}: ` +
        'start the install once with this Spool before moving it',
    );
  const lmdb = new LmdbHealthStore(from);
  const records = await lmdb.all();
  const index = from.openDb<unknown, Key>('health-index');
  const nextId = (index.get(['n']) as number | undefined) ?? 1;
  const inStep = await lmdb.inStepAt();
  await to.tx(async (tx) => {
    for (let i = 0; i < records.length; i += BATCH) {
      await insertRecords(tx, records.slice(i, i + BATCH));
      progress(`${Math.min(i + BATCH, records.length)} of ${records.length} records copied`);
    }
    const maxId = records.reduce((m, r) => Math.max(m, r.id), nextId - 1);
    await tx.query("SELECT setval('health_record_ids', $1, $2)", [Math.max(1, maxId), maxId >= 1]);
    if (inStep !== undefined)
      await tx.query("INSERT INTO health_meta (key, value) VALUES ('in_step_at', $1::jsonb)", [JSON.stringify(inStep)]);
  });
  progress('checking the copy');
  await check(to, records, inStep);
  return [{ scope: 'health', records: records.length }];
};

async function insertRecords(tx: PgTx, batch: readonly HealthRecord[]): Promise<void> {
  if (batch.length === 0) return;
  const width = COLUMNS.length + 2;
  const rows = batch.map((_, i) => {
    const at = (c: number) => `$${i * width + c + 1}`;
    return `(${Array.from({ length: width - 1 }, (_, c) => at(c)).join(', ')}, ${at(width - 1)}::jsonb)`;
  });
  const values = batch.flatMap((r) => [r.id, ...columnsOf(r), JSON.stringify(r)]);
  await tx.query(`INSERT INTO health_records (id, ${COLUMNS.join(', ')}, record) VALUES ${rows.join(', ')}`, values);
}

/** Reads everything back through the PostgreSQL store; throws on the first difference. */
async function check(to: PgDb, records: HealthRecord[], inStep: number | undefined) {
  const pg = new PgHealthStore(to);
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(plain(a), plain(b));
  for (const r of records)
    if (!same(await pg.get(r.id), r)) throw new Error(`health: the copy of record ${r.id} (${r.path}) differs`);
  const total = (await pg.all()).length;
  if (total !== records.length) throw new Error(`health: ${total} records in PostgreSQL, ${records.length} in LMDB`);
  if ((await pg.inStepAt()) !== inStep) throw new Error('health: the in-step marker differs');
}

/** A value as JSON keeps it (fields set to undefined are absent). */
function plain(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}
