import { join } from 'node:path';
import { open } from 'lmdb';
import { openStore, type Store } from '../store/index.js';

/** The LMDB snapshot entry: a consistent, compacted copy of the environment taken in one read transaction. */
export async function snapshotLmdb(store: Store, scratch: string): Promise<{ name: string; path: string }[]> {
  await store.snapshot(scratch);
  return [{ name: 'db/data.mdb', path: join(scratch, 'data.mdb') }];
}

/** Opens the install's store at `rootPath` (`metadata.root_path`), writes its snapshot into `target`, closes it. */
export async function snapshotStoreAt(rootPath: string, target: string): Promise<{ name: string; path: string }[]> {
  const store = openStore({ rootPath });
  try {
    return await snapshotLmdb(store, target);
  } finally {
    await store.close();
  }
}

/**
 * Opens a staged LMDB folder and reads every record of every named database through (every key and value's
 * bytes, read raw: a few databases hold binary values); throws when LMDB cannot read one. Returns the count.
 */
export async function checkLmdbReadable(dbDir: string): Promise<number> {
  const root = open({ path: dbDir, maxDbs: 64, readOnly: true });
  try {
    const names = [...root.getKeys()].filter((k): k is string => typeof k === 'string');
    if (names.length === 0) throw new Error('the store holds no databases');
    let records = 0;
    for (const name of names) {
      const db = root.openDB({ name, encoding: 'binary' });
      for (const entry of db.getRange()) if (entry.value) records++;
    }
    return records;
  } finally {
    await root.close();
  }
}
