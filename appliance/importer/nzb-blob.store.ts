import type { Database, Store } from '../store/index.js';

/**
 * The NZBs themselves in LMDB, as nzb-pack.ts packs them, kept for re-import, retries and export. `import-seen`
 * remembers the sha256 of every NZB ever queued, so a directory scan skips NZBs already imported even after their
 * queue items were cleared. Part of the queue's LMDB store (queue-lmdb.store.ts), which calls it in transactions.
 */
export class NzbBlobStore {
  private readonly blobs: Database<Buffer, number>;
  private readonly seen: Database<number, string>;

  constructor(store: Store) {
    this.blobs = store.openDb<Buffer, number>('queue-nzbs', { encoding: 'binary' });
    this.seen = store.openDb<number, string>('import-seen');
  }

  /** Must run inside a store transaction (LmdbQueueStore.insert does). The first id a hash was queued under stays. */
  put(id: number, packed: Buffer, hash: string): void {
    void this.blobs.put(id, packed);
    if (this.seen.get(hash) === undefined) void this.seen.put(hash, id);
  }

  /**
   * The stored bytes as they are (brotli): the importer decompresses while parsing, so a 100 MB NZB never sits in
   * memory whole (docs/performance.md, import memory). lmdb-js returns a copy of its own for a binary value, which
   * the importer may move to its worker (parseNzbInPool copies first if it ever shares memory).
   */
  readCompressed(id: number): Buffer | undefined {
    return this.blobs.get(id);
  }

  remove(id: number): void {
    void this.blobs.remove(id);
  }

  /** The queue id an NZB with this hash was first queued under, if any. */
  seenAs(hash: string): number | undefined {
    return this.seen.get(hash);
  }
}
