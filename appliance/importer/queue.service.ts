import { AppError } from '../errors/app-error.js';
import { silentEvents, type EventSink, type SpoolEvents } from '../events/index.js';
import { nonRetryableError } from './import-errors.js';
import { nzbHash, packNzb, unpackNzb } from './nzb-pack.js';
import { QueueAdmission } from './queue-admission.js';
import type { QueueStore } from './queue.port.js';
import type { QueueListQuery, QueueRecord } from './queue.types.js';
import type { QueuePriority, QueueStats, QueueStatus } from './queue.wire.js';

export interface EnqueueInput {
  nzb: Uint8Array;
  /** Absolute path of a scanned file, or the uploaded file's name. */
  nzbPath: string;
  category?: string | null;
  priority?: QueuePriority;
  /**
   * Password for encrypted archives in this NZB (SABnzbd's `password` parameter or `nzbname{{password}}`); tried
   * before the NZB's own `<meta type="password">`. Stored with the item, never shown in queue answers.
   */
  password?: string;
}

/**
 * The queue's rules (who may move where); storage is the store's, scheduling the runner's. Every item added,
 * changed (its status above all) or removed is announced as a `queue.item.*` event once its write committed; the
 * runner is woken by those (appliance/app/importer.ts).
 */
export class QueueService {
  /** import.max_queued_items: refuses adds while the queue is full (queue-admission.ts). */
  readonly admission: QueueAdmission;

  constructor(
    readonly repo: QueueStore,
    private readonly settings: () => { maxRetries: number; maxQueuedItems?: number },
    private readonly now: () => number = Date.now,
    private readonly events: EventSink<SpoolEvents> = silentEvents(),
  ) {
    this.admission = new QueueAdmission(repo, () => this.settings().maxQueuedItems ?? 0);
  }

  /**
   * Stores the NZB (compressed) and its queue item in one transaction, then wakes the runner. Throws QUEUE_FULL,
   * storing nothing, while import.max_queued_items items are unfinished.
   */
  async enqueue(input: EnqueueInput): Promise<QueueRecord> {
    await this.admission.check();
    const hash = nzbHash(input.nzb);
    const packed = await packNzb(input.nzb);
    const record = await this.admission.admitted(() => this.insert(input, packed, hash));
    this.events.emit('queue.item.added', queueItemEvent(record));
    return record;
  }

  private insert(input: EnqueueInput, packed: Buffer, hash: string): Promise<QueueRecord> {
    const at = this.now();
    return this.repo.insert(
      {
        nzbPath: input.nzbPath,
        name: jobNameFromPath(input.nzbPath),
        category: input.category?.trim() || null,
        priority: input.priority ?? 0,
        status: 'pending',
        targetPath: null,
        fileSize: estimateSize(input.nzb),
        retryCount: 0,
        maxRetries: this.settings().maxRetries,
        errorMessage: null,
        nextAttemptAt: null,
        contentHash: hash,
        ...(input.password ? { password: input.password } : {}),
        createdAt: at,
        updatedAt: at,
        startedAt: null,
        completedAt: null,
      },
      { packed, hash },
    );
  }

  get(id: number): Promise<QueueRecord | undefined> {
    return this.repo.get(id);
  }

  async require(id: number): Promise<QueueRecord> {
    const item = await this.repo.get(id);
    if (!item) throw new AppError('NO_SUCH_RECORD', `Queue item ${id} not found`);
    return item;
  }

  list(q: QueueListQuery): Promise<{ items: QueueRecord[]; total: number }> {
    return this.repo.list(q);
  }

  /** Completed and failed items newest first (SABnzbd history); category '*' = items without one. */
  history(q: { category?: string; offset: number; limit: number }): Promise<{ items: QueueRecord[]; total: number }> {
    return this.repo.history(q);
  }

  /** Items still to import or being imported (SABnzbd queue), in the order they run: few, read from indexes. */
  async active(): Promise<QueueRecord[]> {
    const ids = [
      ...(await this.repo.idsWithStatus('processing')),
      ...(await this.repo.idsWithStatus('retrying')),
      ...(await this.repo.idsWithStatus('pending')),
    ];
    return this.repo.getMany(ids);
  }

  /** SABnzbd's pause/resume of one item: a paused pending item is not claimed by the runner. */
  setPaused(id: number, paused: boolean): Promise<QueueRecord | undefined> {
    return this.change(id, (cur) =>
      cur.status === 'completed' || cur.status === 'failed' ? null : { ...cur, paused, updatedAt: this.now() },
    );
  }

  async stats(): Promise<QueueStats> {
    const c = await this.repo.counts();
    return {
      total_queued: c.pending + c.processing + c.repairing + c.completed + c.failed + c.retrying,
      total_processing: c.processing,
      total_completed: c.completed,
      total_failed: c.failed,
      total_pending: c.pending,
      total_retrying: c.retrying,
    };
  }

  /** Deletes an item and its NZB. An import in progress cannot be deleted (it would write a job nobody owns). */
  async remove(id: number): Promise<QueueRecord> {
    const item = await this.require(id);
    if (inProgress(item))
      throw new AppError('IN_PROGRESS', `Queue item ${id} is being imported; delete it when it is done`);
    const removed = await this.repo.remove(id, (cur) => !inProgress(cur));
    if (!removed) throw new AppError('IN_PROGRESS', `Queue item ${id} is being imported; delete it when it is done`);
    this.events.emit('queue.item.removed', queueItemEvent(removed));
    return removed;
  }

  async bulkRemove(ids: number[]): Promise<{ deleted: number; skipped: number[] }> {
    const skipped: number[] = [];
    let deleted = 0;
    for (const id of new Set(ids)) {
      const removed = await this.repo.remove(id, (cur) => !inProgress(cur));
      if (removed) {
        deleted++;
        this.events.emit('queue.item.removed', queueItemEvent(removed));
      } else skipped.push(id);
    }
    return { deleted, skipped };
  }

  /** Back to pending with the retry count reset (items being imported are left alone). */
  async bulkRestart(ids: number[]): Promise<{ restarted: number; skipped: number[] }> {
    const skipped: number[] = [];
    let restarted = 0;
    for (const id of new Set(ids)) {
      const changed = await this.change(id, (cur) =>
        inProgress(cur) ? null : { ...this.requeued(cur), retryCount: 0 },
      );
      if (changed?.status === 'pending') restarted++;
      else skipped.push(id);
    }
    return { restarted, skipped };
  }

  /** Runs the item again now: failed, completed or waiting for a retry; a pending one moves to the front. */
  async retry(id: number): Promise<QueueRecord> {
    const item = await this.require(id);
    if (inProgress(item)) throw new AppError('IN_PROGRESS', `Queue item ${id} is already being imported`);
    const updated = await this.change(id, (cur) =>
      inProgress(cur) ? null : { ...this.requeued(cur), priority: cur.status === 'pending' ? 2 : cur.priority },
    );
    return updated ?? item;
  }

  /** DELETE /queue/completed and /queue/failed: items last changed before `olderThan` (all when absent). */
  async clear(status: 'completed' | 'failed', olderThan?: number): Promise<{ deleted: number }> {
    const ids = await this.repo.idsWithStatus(status, olderThan ?? Infinity);
    let deleted = 0;
    // Batches keep each write transaction short while the runner and the console keep working.
    for (let i = 0; i < ids.length; i += 500) {
      const removed = await this.repo.removeMany(ids.slice(i, i + 500), (cur) => cur.status === status);
      deleted += removed.length;
      if (this.events.hasListeners('queue.item.removed'))
        for (const r of removed) this.events.emit('queue.item.removed', queueItemEvent(r));
    }
    return { deleted };
  }

  // ---- the runner's side ----

  /**
   * Items left 'processing' or 'repairing' by a crash go back to pending: nothing was committed for them (a job
   * written for a repair is replaced by the re-run, which repairs again: docs/import.md "Repair at import").
   */
  async recover(): Promise<number> {
    const ids = [...(await this.repo.idsWithStatus('processing')), ...(await this.repo.idsWithStatus('repairing'))];
    for (const id of ids) {
      await this.change(id, (cur) => (inProgress(cur) ? { ...cur, status: 'pending', updatedAt: this.now() } : null));
    }
    return ids.length;
  }

  /**
   * The import of a claimed item found articles missing that the release's PAR2 files can rebuild: its job is
   * written and being repaired. The SABnzbd history shows it `Repairing` (the arrs wait) until complete() or fail().
   */
  async markRepairing(id: number): Promise<void> {
    await this.change(id, (cur) =>
      cur.status === 'processing' ? { ...cur, status: 'repairing', updatedAt: this.now() } : null,
    );
  }

  /** Takes the next runnable item and marks it processing (one transaction, so two workers never share one). */
  async claim(): Promise<QueueRecord | undefined> {
    const now = this.now();
    let previous: QueueStatus = 'pending';
    const item = await this.repo.claimNext(now, (cur) => {
      previous = cur.status;
      return { ...cur, status: 'processing', startedAt: now, updatedAt: now, nextAttemptAt: null };
    });
    if (!item) return undefined;
    this.events.emit('queue.item.changed', queueItemChanged(item, previous));
    return item;
  }

  nextRetryAt(): Promise<number | undefined> {
    return this.repo.nextRetryAt();
  }

  /** The queue id an NZB with this hash (nzb-pack.ts `nzbHash`) was first queued under, if any. */
  seenAs(hash: string): Promise<number | undefined> {
    return this.repo.seenAs(hash);
  }

  /**
   * Chooses and reserves the job directory in one write transaction, so two imports of the same name (the same
   * NZB twice, or two NZBs both called `Same.Name.nzb`) can never both take it. `dirFor(1)` is the wanted path,
   * `dirFor(n)` the n-th alternative; a path is free when no other item holds it and `inUse` (the VFS) says no job
   * is there. An item that already holds a directory in the same place keeps it: a re-run after a crash or a
   * restart replaces its own job, never another item's.
   */
  reserveJobDir(id: number, dirFor: (n: number) => string, inUse: (path: string) => boolean): Promise<string> {
    return this.repo.reserveJobDir(id, (item, holderOf) => {
      const own = item.targetPath;
      const sameParent = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
      let chosen: string | undefined;
      if (own !== null && sameParent(own) === sameParent(dirFor(1)) && (holderOf(own) ?? id) === id) chosen = own;
      for (let n = 1; chosen === undefined && n <= MAX_JOB_DIR_TRIES; n++) {
        const path = dirFor(n);
        const owner = holderOf(path);
        if ((owner === undefined || owner === id) && !inUse(path)) chosen = path;
      }
      if (chosen === undefined)
        throw nonRetryableError(
          `No free job directory: ${dirFor(1)} and ${MAX_JOB_DIR_TRIES - 1} alternatives are taken`,
        );
      return chosen;
    });
  }

  async complete(
    id: number,
    result: {
      targetPath: string;
      fileSize: number;
      storagePath?: string | null;
      forwarded?: QueueRecord['forwarded'];
      warnings?: readonly string[];
    },
  ): Promise<void> {
    await this.change(id, (cur) => ({
      ...cur,
      targetPath: result.targetPath || null,
      fileSize: result.fileSize,
      storagePath: result.storagePath ?? null,
      ...(result.forwarded ? { forwarded: result.forwarded } : {}),
      status: 'completed',
      errorMessage: null,
      warningMessage: result.warnings?.length ? result.warnings.join('; ') : null,
      completedAt: this.now(),
      updatedAt: this.now(),
    }));
  }

  /** A failed attempt: 'retrying' until `retryAt`, or 'failed' for good when retryAt is null. */
  fail(id: number, message: string, retryAt: number | null, code?: string): Promise<QueueRecord | undefined> {
    return this.change(id, (cur) => ({
      ...cur,
      errorCode: code ?? null,
      status: retryAt === null ? 'failed' : 'retrying',
      retryCount: retryAt === null ? cur.retryCount : cur.retryCount + 1,
      nextAttemptAt: retryAt,
      errorMessage: message,
      updatedAt: this.now(),
    }));
  }

  async nzb(id: number): Promise<Buffer> {
    const packed = await this.repo.nzb(id);
    const bytes = packed && (await unpackNzb(packed));
    if (!bytes) throw new AppError('NO_SUCH_RECORD', `The NZB of queue item ${id} is no longer stored`);
    return bytes;
  }

  /** The NZB still brotli-compressed, as stored (`parseStoredNzb` decompresses it while parsing). */
  async nzbCompressed(id: number): Promise<Buffer> {
    const bytes = await this.repo.nzb(id);
    if (!bytes) throw new AppError('NO_SUCH_RECORD', `The NZB of queue item ${id} is no longer stored`);
    return bytes;
  }

  /** One item changed in its own transaction, announced once committed (nothing when `change` returns null). */
  private async change(id: number, change: (cur: QueueRecord) => QueueRecord | null): Promise<QueueRecord | undefined> {
    let previous: QueueStatus | undefined;
    const updated = await this.repo.update(id, (cur) => {
      const next = change(cur);
      if (next) previous = cur.status;
      return next;
    });
    if (updated && previous !== undefined) this.events.emit('queue.item.changed', queueItemChanged(updated, previous));
    return updated;
  }

  private requeued(cur: QueueRecord): QueueRecord {
    return {
      ...cur,
      status: 'pending',
      errorMessage: null,
      errorCode: null,
      warningMessage: null,
      nextAttemptAt: null,
      updatedAt: this.now(),
    };
  }
}

/** Being imported: claimed by the runner, or its written job being repaired from PAR2. */
function inProgress(r: QueueRecord): boolean {
  return r.status === 'processing' || r.status === 'repairing';
}

function queueItemEvent(r: QueueRecord): SpoolEvents['queue.item.added'] {
  return { id: r.id, name: r.name, category: r.category, status: r.status, paused: r.paused ?? false };
}

function queueItemChanged(r: QueueRecord, previous: QueueStatus): SpoolEvents['queue.item.changed'] {
  return { ...queueItemEvent(r), previous_status: previous };
}

/** `Name`, `Name (2)` ... `Name (999)`: past that something is wrong, not merely popular. */
const MAX_JOB_DIR_TRIES = 999;

/** 'dir/Show.S01E01.nzb' -> 'Show.S01E01'. */
export function jobNameFromPath(nzbPath: string): string {
  const base = nzbPath.replace(/\\/g, '/').split('/').pop() ?? '';
  return base.replace(/\.nzb$/i, '') || 'nzb';
}

/** Sum of the NZB's `bytes=` attributes: what the console shows as size until the import knows better. */
function estimateSize(nzb: Uint8Array): number {
  // Past 16 MB the scan would hold the event loop for a noticeable time; the import fills the real size anyway.
  if (nzb.byteLength > 16 * 1024 * 1024) return 0;
  const text = Buffer.from(nzb.buffer, nzb.byteOffset, nzb.byteLength).toString('latin1');
  let total = 0;
  for (const m of text.matchAll(/\bbytes\s*=\s*["'](\d{1,12})["']/g)) total += Number(m[1]);
  return total;
}
