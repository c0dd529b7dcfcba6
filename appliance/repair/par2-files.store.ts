import type { Store } from '../store/index.js';
import type { KeptPar2File, Par2FileStore } from './repair.port.js';

/**
 * The PAR2 files of each import (LMDB `repair-par2-files`, key: queue item id): their names, sizes and article
 * maps. The importer leaves PAR2 files out of the tree; a repair months later reads the index and recovery packets
 * through these layouts (docs/health.md "PAR2 repair").
 */
export class LmdbPar2FileStore implements Par2FileStore {
  private readonly db;

  constructor(store: Store) {
    this.db = store.openDb<KeptPar2File[], number>('repair-par2-files');
  }

  async put(queueItemId: number, files: readonly KeptPar2File[]): Promise<void> {
    await this.db.put(queueItemId, [...files]);
  }

  async get(queueItemId: number): Promise<KeptPar2File[] | undefined> {
    return this.db.get(queueItemId);
  }

  async remove(queueItemId: number): Promise<void> {
    await this.db.remove(queueItemId);
  }
}
