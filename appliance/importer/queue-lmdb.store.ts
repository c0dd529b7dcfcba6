import { AppError } from '../errors/app-error.js';
import type { Store } from '../store/index.js';
import { NzbBlobStore } from './nzb-blob.store.js';
import type { PackedNzb, QueuePage, QueueStore } from './queue.port.js';
import { QueueTables } from './queue.store.js';
import type { QueueListQuery, QueueRecord } from './queue.types.js';
import type { QueueStatus } from './queue.wire.js';

/**
 * The queue's port on LMDB: the items and their indexes (queue.store.ts) and the NZBs (nzb-blob.store.ts) in the
 * one environment, so a multi-write operation is one synchronous LMDB transaction. LMDB answers at once; the
 * Promises are the port's, for stores that need a round trip.
 */
export class LmdbQueueStore implements QueueStore {
  private readonly tables: QueueTables;
  private readonly blobs: NzbBlobStore;

  constructor(private readonly store: Store) {
    this.tables = new QueueTables(store);
    this.blobs = new NzbBlobStore(store);
  }

  async get(id: number): Promise<QueueRecord | undefined> {
    return this.tables.get(id);
  }

  async getMany(ids: readonly number[]): Promise<QueueRecord[]> {
    return ids.map((id) => this.tables.get(id)).filter((r): r is QueueRecord => r !== undefined);
  }

  async insert(draft: Omit<QueueRecord, 'id'>, nzb: PackedNzb): Promise<QueueRecord> {
    return this.store.transaction(() => {
      const record = this.tables.insert(draft);
      this.blobs.put(record.id, nzb.packed, nzb.hash);
      return record;
    });
  }

  async update(id: number, change: (current: QueueRecord) => QueueRecord | null): Promise<QueueRecord | undefined> {
    return this.tables.update(id, change);
  }

  async remove(id: number, allow: (current: QueueRecord) => boolean): Promise<QueueRecord | undefined> {
    return this.store.transaction(() => this.removeNow(id, allow));
  }

  async removeMany(ids: readonly number[], allow: (current: QueueRecord) => boolean): Promise<QueueRecord[]> {
    return this.store.transaction(() =>
      ids.map((id) => this.removeNow(id, allow)).filter((r): r is QueueRecord => r !== undefined),
    );
  }

  async claimNext(now: number, claim: (item: QueueRecord) => QueueRecord): Promise<QueueRecord | undefined> {
    return this.store.transaction(() => {
      const next = this.tables.nextRunnable(now);
      return next && this.tables.update(next.id, claim);
    });
  }

  async reserveJobDir(
    id: number,
    choose: (item: QueueRecord, holderOf: (path: string) => number | undefined) => string,
  ): Promise<string> {
    return this.store.transaction(() => {
      const item = this.tables.get(id);
      if (!item) throw new AppError('NO_SUCH_RECORD', `Queue item ${id} not found`);
      const chosen = choose(item, (path) => this.tables.jobDirOwner(path));
      this.tables.holdJobDir(id, chosen);
      this.tables.update(id, (cur) => ({ ...cur, targetPath: chosen }));
      return chosen;
    });
  }

  async counts(): Promise<Record<QueueStatus, number>> {
    return this.tables.counts();
  }

  async idsWithStatus(status: QueueStatus, updatedBefore?: number): Promise<number[]> {
    return this.tables.idsWithStatus(status, updatedBefore);
  }

  async nextRetryAt(): Promise<number | undefined> {
    return this.tables.nextRetryAt();
  }

  async list(q: QueueListQuery): Promise<QueuePage> {
    return this.tables.list(q);
  }

  async history(q: { category?: string; offset: number; limit: number }): Promise<QueuePage> {
    return this.tables.history(q);
  }

  async nzb(id: number): Promise<Buffer | undefined> {
    return this.blobs.readCompressed(id);
  }

  async seenAs(hash: string): Promise<number | undefined> {
    return this.blobs.seenAs(hash);
  }

  /** Inside a transaction. */
  private removeNow(id: number, allow: (current: QueueRecord) => boolean): QueueRecord | undefined {
    const removed = this.tables.remove(id, allow);
    if (removed) this.blobs.remove(id);
    return removed;
  }
}
