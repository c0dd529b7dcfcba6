import { open } from 'lmdb';
import { openStore } from '../store/index.js';

/** Opens the install's store at `rootPath` (`metadata.root_path`), writes its snapshot into `target`, closes it. */
export async function snapshotStoreAt(rootPath: string, target: string): Promise<void> {
  const store = openStore({ rootPath });
  try {
    await store.snapshot(target);
  } finally {
    await store.close();
  }
}

/** Opens a staged LMDB folder and reads its main database through; throws when LMDB cannot read it. */
export async function checkLmdbReadable(dbDir: string): Promise<void> {
  const root = open({ path: dbDir, maxDbs: 64 });
  try {
    let keys = 0;
    for (const _key of root.getKeys()) keys++;
    if (keys === 0) throw new Error('the store holds no databases');
  } finally {
    await root.close();
  }
}
