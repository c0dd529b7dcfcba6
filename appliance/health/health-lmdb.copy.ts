import { isDeepStrictEqual } from 'node:util';
import type { CopyToLmdb } from '../store/pg/index.js';
import { PgHealthStore } from './health-pg.store.js';
import { LmdbHealthStore, openHealthStore } from './health.store.js';

/**
 * The health domain the other way (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy): the records with
 * their ids (the next id past PostgreSQL's sequence, so no id is given twice) and the in-step marker, into an empty
 * LMDB environment brought to this Spool's health schema; then every record is read back
 * through the LMDB store (by id and by path) and compared, and the status counts checked.
 */
export const copyHealthToLmdb: CopyToLmdb = async (from, to, progress) => {
  openHealthStore(to); // the LMDB health schema, on the empty environment
  const pg = new PgHealthStore(from);
  const records = await pg.all();
  const inStep = await pg.inStepAt();
  const seq = (
    await from.query<{ v: string; called: boolean }>(
      'SELECT last_value AS v, is_called AS called FROM health_record_ids',
    )
  ).rows[0]!;
  const nextId = Math.max(Number(seq.v) + (seq.called ? 1 : 0), records.reduce((m, r) => Math.max(m, r.id), 0) + 1);
  const lmdb = new LmdbHealthStore(to);
  to.transaction(() => lmdb.insertCopiedNow(records, nextId, inStep));
  progress(`${records.length} records copied; checking`);
  for (const r of records) {
    if (!isDeepStrictEqual(await lmdb.get(r.id), r)) throw new Error(`health: the copy of record ${r.id} differs`);
    if ((await lmdb.byPath(r.path))?.id !== r.id) throw new Error(`health: record ${r.id} is not found by its path`);
  }
  if ((await lmdb.all()).length !== records.length) throw new Error('health: the record count differs');
  if (!isDeepStrictEqual(await lmdb.counts(), await pg.counts())) throw new Error('health: the status counts differ');
  if ((await lmdb.inStepAt()) !== inStep) throw new Error('health: the in-step marker differs');
  return [{ scope: 'health', records: records.length }];
};
