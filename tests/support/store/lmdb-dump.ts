/**
 * Every record of an LMDB environment's named databases, decoded as the app's stores decode them (msgpack, and raw
 * bytes for the databases the app opens binary), keyed by database name: what a test compares to prove two
 * environments hold the same records (the copy into PostgreSQL and back, appliance/app/migrate-to-lmdb.ts).
 */
import { join } from 'node:path';
import { open } from 'lmdb';
import { NODES_DB_OPTIONS } from '../../../appliance/vfs/tree-nodes.store.js';

/** The databases the app opens with `encoding: 'binary'` (importer/nzb-blob.store.ts). */
const BINARY = new Set(['queue-nzbs']);

export type LmdbDump = Map<string, { key: unknown; value: unknown }[]>;

export async function dumpLmdb(rootPath: string): Promise<LmdbDump> {
  const root = open({ path: join(rootPath, 'db'), maxDbs: 64, readOnly: true });
  try {
    const out: LmdbDump = new Map();
    for (const name of [...root.getKeys()].filter((k): k is string => typeof k === 'string')) {
      const db = root.openDB({ name, ...optionsOf(name) });
      // The shared record definitions (a symbol key) are not records: each environment builds its own list.
      const records = [...db.getRange()].filter(({ key }) => typeof key !== 'symbol');
      out.set(
        name,
        records.map(({ key, value }) => ({ key, value: plain(value) })),
      );
    }
    return out;
  } finally {
    await root.close();
  }
}

/** The options the app opens `name` with, so its records decode as the app reads them. */
function optionsOf(name: string): object {
  if (BINARY.has(name)) return { encoding: 'binary' as const };
  return name === 'vfs-nodes' ? NODES_DB_OPTIONS : {};
}

/** A value as JSON keeps it (a field set to undefined is absent), bytes as base64, for comparing across backends. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('base64') };
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
