import type { Database } from 'lmdb';
import type { DbOptions } from './store.js';

/**
 * Where a database with shared record definitions keeps them: lmdb-js stores the list under this key inside the
 * database itself. A symbol key sorts before every string, number and array key, and lmdb-js's range reads start
 * past symbols unless told otherwise, so scans and counts never see it.
 */
export const SHARED_STRUCTURES_KEY = Symbol.for('structures');

/**
 * The options of a database whose msgpack records share their record definitions (the list of an object's keys)
 * instead of each record carrying its own (lmdb-js `sharedStructuresKey`, msgpackr "Shared Record Structures";
 * docs/streaming.md "The tree"). A record then starts with a one- or two-byte definition id, so it is
 * smaller and decodes with a reader built once per definition. Records written without definitions (each carrying
 * its own inline) still decode. `max` is the most definitions shared (msgpackr `maxSharedStructures`; a shape past
 * it, or one `share` refuses, is written with its definition inline, as before): fixed for the life of the data,
 * since it decides how definition ids are written. Every opener of the database must pass the same options: a
 * plain opener cannot read the records (the store refuses a second open with other options).
 */
export function sharedStructures(max: number, share: (keys: readonly string[]) => boolean): DbOptions {
  return { sharedStructuresKey: SHARED_STRUCTURES_KEY, maxSharedStructures: max, shouldShareStructure: share };
}

/** msgpackr's encoder state this module looks at (not in lmdb-js's types). */
interface StructuresEncoder {
  structures?: unknown[] & { sharedLength?: number; uninitialized?: boolean };
  decode(bytes: Uint8Array): unknown;
}

/**
 * Call inside a write transaction, before writing records to `db` (a no-op for a database without shared
 * definitions). msgpackr saves a new definition inside the transaction running when it first meets a new shape,
 * and from then on believes it stored; if that transaction rolled back (an action that threw, a failed commit), the
 * next record of that shape would name a definition the store does not hold, and no other process (nor this one
 * after a restart) could read it. When the store holds fewer definitions than the encoder believes, the encoder
 * forgets them and reloads the stored list before its next record.
 */
export function reconcileSharedStructures(db: Database): void {
  const key = (db as { sharedStructuresKey?: symbol }).sharedStructuresKey;
  if (key === undefined) return;
  const encoder = (db as unknown as { encoder: StructuresEncoder }).encoder;
  const believed = encoder.structures?.uninitialized ? 0 : (encoder.structures?.sharedLength ?? 0);
  if (believed === 0) return;
  const raw = db.getBinary(key);
  const stored = raw ? (encoder.decode(raw) as unknown[]).length : 0;
  if (stored < believed) forgetSharedStructures(db);
}

/** Makes `db`'s encoder reload its shared definitions from the store before its next record (after a rollback). */
export function forgetSharedStructures(db: Database): void {
  if ((db as { sharedStructuresKey?: symbol }).sharedStructuresKey === undefined) return;
  const encoder = (db as unknown as { encoder: StructuresEncoder }).encoder;
  encoder.structures = Object.assign([], { uninitialized: true, sharedLength: 0 });
}
