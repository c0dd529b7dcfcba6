import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type DatabaseOptions, type Key, type RootDatabase } from 'lmdb';
import type { Logger } from '../logging/logger.js';
import { trackWriteBatches } from './write-batches.js';

export type { Database, Key } from 'lmdb';

/**
 * Options for one named database; values are msgpack-encoded unless `encoding` says otherwise. The two msgpackr
 * options lmdb-js hands to its encoder (not in its types) go with shared record definitions (shared-structures.ts).
 */
export type DbOptions = Omit<DatabaseOptions, 'name'> & {
  maxSharedStructures?: number;
  shouldShareStructure?: (keys: readonly string[]) => boolean;
  /** How keys are written and read (lmdb-js `keyEncoder`); lmdb-js's ordered-binary by default. */
  keyEncoder?: {
    writeKey(key: unknown, target: Uint8Array, position: number, inSequence?: boolean): number;
    readKey(bytes: Uint8Array, start: number, end: number): unknown;
    enableNullTermination?(): void;
  };
};

/**
 * The one LMDB environment of a Spool instance. Each domain opens its own named database through `openDb`
 * (users, sessions, settings here; queue, health, vfs elsewhere) and never reads another domain's database.
 */
export interface Store {
  /** Directory holding the LMDB files. */
  readonly path: string;
  /**
   * Opens (creating if needed) a named database. Opening the same name twice returns the same handle: a second open
   * without options takes it as first opened, one with other options than the first throws (the first opener's
   * would win silently: say, a plain handle for a database whose records another opener alone can read,
   * shared-structures.ts).
   */
  openDb<V = unknown, K extends Key = Key>(name: string, options?: DbOptions): Database<V, K>;
  /** Runs `action` in one synchronous write transaction across all databases (commits or rolls back as a whole). */
  transaction<T>(action: () => T): T;
  /** Small key-value settings that do not belong in the YAML file (e.g. secrets generated on first start). */
  readonly settings: Database<unknown, string>;
  /** Store bookkeeping (schema versions); see migrations.ts. */
  readonly meta: Database<unknown, string>;
  /** Writes a consistent, compacted copy of the whole environment (one read transaction) as `data.mdb` in the existing folder
   * `target`. */
  snapshot(target: string): Promise<void>;
  /** Waits for pending writes and for every write thread to end, then closes the environment. Safe to call twice. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** `metadata.root_path`: the LMDB files go in `<rootPath>/db`. */
  rootPath: string;
  logger?: Logger;
  /** Upper bound of named databases; LMDB needs it fixed when the environment opens. */
  maxDbs?: number;
}

const RESERVED = new Set(['_meta', 'settings']);

/** The LMDB environment's data file under a store's root path (what the process maps to read it). */
export function storeDataFile(rootPath: string): string {
  return join(rootPath, 'db', 'data.mdb');
}

export function openStore(opts: OpenStoreOptions): Store {
  const path = join(opts.rootPath, 'db');
  mkdirSync(path, { recursive: true });
  const root: RootDatabase = open({ path, maxDbs: opts.maxDbs ?? 64 });
  const batches = trackWriteBatches(root);
  const handles = new Map<string, { db: Database<unknown, Key>; options: DbOptions }>();
  let closed: Promise<void> | null = null;

  const openNamed = <V, K extends Key>(name: string, options: DbOptions = {}): Database<V, K> => {
    if (closed) throw new Error(`Store is closed; cannot open database '${name}'`);
    const existing = handles.get(name);
    if (existing) {
      if (Object.keys(options).length > 0 && !sameOptions(existing.options, options))
        throw new Error(`Database '${name}' is already open with other options; every opener must pass the same`);
      return existing.db as unknown as Database<V, K>;
    }
    const db = root.openDB<V, K>({ ...options, name });
    handles.set(name, { db: db as unknown as Database<unknown, Key>, options });
    return db;
  };

  const meta = openNamed<unknown, string>('_meta');
  const settings = openNamed<unknown, string>('settings');
  opts.logger?.debug('store opened', { path });

  return {
    path,
    meta,
    settings,
    openDb(name, options) {
      if (RESERVED.has(name)) throw new Error(`Database name '${name}' is reserved by the store`);
      if (!/^[a-z][a-z0-9_.-]{0,63}$/.test(name)) throw new Error(`Invalid database name '${name}'`);
      return openNamed(name, options);
    },
    transaction: (action) => root.transactionSync(action),
    snapshot: (target) => root.backup(target, true),
    close() {
      closed ??= (async () => {
        await root.flushed;
        // Every write thread has ended, not only the last batch's (write-batches.ts): the close frees what they read.
        await batches.settled();
        await root.close();
        opts.logger?.debug('store closed', { path });
      })();
      return closed;
    },
  };
}

/** Options equal key by key (the same values, functions and symbols by identity). */
function sameOptions(a: DbOptions, b: DbOptions): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof DbOptions>;
  return [...keys].every((k) => Object.is(a[k], b[k]));
}
