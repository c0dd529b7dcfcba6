import type { Clock } from '../clock/clock.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { ArticleFailure } from '../vfs/types.js';
import type { HealthFiles, HealthRunner } from './health.runner.js';
import type { HealthListQuery, HealthStore } from './health.store.js';
import type { HealthRecord } from './health.types.js';
import type { HealthStatsJson, HealthWorkerStatusJson } from './health.wire.js';
import type { RepairBreaker } from './repair.breaker.js';
import type { RepairLoop } from './repair.loop.js';

export interface HealthServiceDeps {
  store: HealthStore;
  files: HealthFiles & { walkFiles(path?: string): Iterable<{ path: string; layoutId?: string; createdAt: number }> };
  runner: HealthRunner;
  repair: RepairLoop;
  breaker: RepairBreaker;
  clock: Clock;
  enabled: () => boolean;
  intervalMs: () => number;
  logger: Logger;
}

/** The health calls of the console (docs/health.md) and the hooks the VFS and the reader feed. */
export class HealthService {
  constructor(private readonly d: HealthServiceDeps) {}

  list(q: HealthListQuery) {
    return this.d.store.list(q);
  }

  byPath(path: string): HealthRecord {
    const r = this.d.store.byPath(path);
    if (!r) throw new AppError('NOT_FOUND', `No health record for ${path}`);
    return r;
  }

  byId(id: number): HealthRecord {
    const r = this.d.store.get(id);
    if (!r) throw new AppError('NOT_FOUND', `No health record ${id}`);
    return r;
  }

  remove(id: number): HealthRecord {
    this.d.runner.cancel(id);
    const r = this.d.store.remove(id);
    if (!r) throw new AppError('NOT_FOUND', `No health record ${id}`);
    return r;
  }

  bulkDelete(paths: readonly string[]): { deleted: number; missing: string[] } {
    const missing: string[] = [];
    let deleted = 0;
    for (const p of paths) {
      const r = this.d.store.byPath(p);
      if (!r) missing.push(p);
      else {
        this.remove(r.id);
        deleted++;
      }
    }
    return { deleted, missing };
  }

  /** Restart: back to pending and queued for a check now, retry counts reset. */
  bulkRestart(paths: readonly string[]): { restarted: number; missing: string[] } {
    const missing: string[] = [];
    let restarted = 0;
    for (const p of paths) {
      const r = this.d.store.byPath(p);
      if (!r) missing.push(p);
      else {
        this.queue(r.id, false, { status: 'pending', retryCount: 0, lastError: null, errorDetails: null });
        restarted++;
      }
    }
    this.d.runner.wake();
    return { restarted, missing };
  }

  /** POST /health/{path}/retry: check again now; `resetStatus` also forgets the verdict and the retry count. */
  retry(path: string, resetStatus: boolean): HealthRecord {
    const r = this.byPath(path);
    const patch: Partial<HealthRecord> = resetStatus ? { status: 'pending', retryCount: 0, lastError: null } : {};
    const updated = this.queue(r.id, false, patch);
    this.d.runner.wake();
    return updated;
  }

  repair(id: number, resetCount: boolean): Promise<HealthRecord> {
    return this.d.repair.repairNow(id, resetCount);
  }

  /** POST /health/check: track the file if needed and queue it (priority jumps ahead of other manual checks). */
  check(filePath: string, sourceNzbPath: string | undefined, priority: boolean): HealthRecord {
    const node = this.d.files.stat(filePath);
    if (!node || node.type !== 'file' || !node.layoutId)
      throw new AppError('NOT_FOUND', `No article-backed file at ${filePath}`);
    const record = this.track(node.path, node.createdAt, sourceNzbPath || node.sourceNzbPath || null);
    const updated = this.queue(record.id, priority, {});
    this.d.runner.wake();
    return updated;
  }

  checkNow(id: number): HealthRecord {
    this.byId(id);
    const updated = this.queue(id, true, {});
    this.d.runner.wake();
    return updated;
  }

  cancel(id: number): HealthRecord {
    const r = this.byId(id);
    if (!this.d.runner.cancel(id)) {
      if (r.manual) return this.d.store.update(id, (x) => ({ ...x, manual: null, lastError: 'Check cancelled' }))!;
      throw new AppError('NOT_FOUND', `No check is running or queued for ${r.path}`);
    }
    return this.d.store.get(id) ?? r;
  }

  /** DELETE /health/cleanup: records created before `olderThan` (ms), optionally only some statuses. */
  cleanup(olderThan: number, statuses?: readonly string[]): number {
    let deleted = 0;
    for (const r of [...this.d.store.all()]) {
      if (r.createdAt >= olderThan || r.status === 'checking') continue;
      if (statuses && !statuses.includes(r.status)) continue;
      this.d.store.remove(r.id);
      deleted++;
    }
    return deleted;
  }

  stats(): HealthStatsJson {
    const c = this.d.store.counts();
    const total = Object.values(c).reduce((a, b) => a + b, 0);
    return { total, ...c };
  }

  workerStatus(): HealthWorkerStatusJson {
    const k = this.d.runner.counters;
    const paused = this.d.breaker.openReason(this.d.clock.now());
    return {
      status: this.d.enabled() ? 'running' : 'stopped',
      pending_manual_checks: this.d.store.manualCount(),
      total_files_checked: k.checked,
      total_files_corrupted: k.corrupted,
      total_runs_completed: k.runs,
      last_run_time: k.lastRunAt === null ? null : new Date(k.lastRunAt).toISOString(),
      active_checks: this.d.runner.activeChecks,
      repair_paused: paused !== null,
      repair_paused_reason: paused,
    };
  }

  /** Message ids of a file known unavailable: the last verdict's missing articles and reads' evidence since. */
  unavailable(path: string): Set<string> {
    const r = this.d.store.byPath(path);
    return new Set([...(r?.missing.map((m) => m.messageId) ?? []), ...(r?.readEvidence ?? [])]);
  }

  // ---- hooks -------------------------------------------------------------------------------------------------

  /** A job wrote files (import completed): each gets a record, pending; a path that had one starts over. */
  filesAdded(paths: readonly string[]): void {
    for (const p of paths) {
      const node = this.d.files.stat(p);
      if (!node || !node.layoutId) continue;
      const now = this.d.clock.now();
      this.d.store.upsert(
        p,
        () => this.fresh(p, node.createdAt, node.sourceNzbPath ?? null),
        (r) => ({
          ...this.fresh(p, node.createdAt, node.sourceNzbPath ?? null),
          id: r.id,
          createdAt: r.createdAt,
          repairRetryCount: 0,
          nextCheckAt: now + this.d.intervalMs(),
        }),
      );
    }
    this.d.runner.wake();
  }

  /** Paths (files or directories) left the tree: their records follow. */
  filesRemoved(paths: readonly string[]): void {
    for (const p of paths) {
      const r = this.d.store.byPath(p);
      if (r) this.remove(r.id);
      for (const child of [...this.d.store.under(p)]) this.remove(child.id);
    }
  }

  /** A directory or file moved: its records move with it. */
  filesMoved(from: string, to: string): void {
    for (const r of [...this.d.store.under(from), ...[this.d.store.byPath(from)].filter((x) => x !== undefined)]) {
      this.d.store.rename(r.id, to + r.path.slice(from.length));
    }
  }

  /**
   * A read could not get an article. 430 everywhere or a bad CRC is evidence: remembered and a check queued; an
   * outage (timeout, refused, no provider) is not evidence of anything and only logged by the caller.
   */
  readFailed(f: ArticleFailure): void {
    const node = this.d.files.stat(f.path);
    if (!node || !node.layoutId) return;
    const record = this.track(node.path, node.createdAt, node.sourceNzbPath ?? null);
    const queue = this.d.enabled() && !record.manual && record.status !== 'checking';
    this.d.store.update(record.id, (r) => ({
      ...r,
      readEvidence: r.readEvidence.includes(f.messageId)
        ? r.readEvidence
        : [...r.readEvidence, f.messageId].slice(-1000),
      manual: queue ? { priority: true, at: this.d.clock.now() } : r.manual,
    }));
    if (queue) this.d.runner.wake();
  }

  /** A read got an article that was marked missing: the mark (verdict or read evidence) is out of date. */
  readRecovered(path: string, messageIds: readonly string[]): void {
    const r = this.d.store.byPath(path);
    if (!r) return;
    const back = new Set(messageIds);
    this.d.store.update(r.id, (x) => ({
      ...x,
      missing: x.missing.filter((m) => !back.has(m.messageId)),
      readEvidence: x.readEvidence.filter((id) => !back.has(id)),
    }));
  }

  /** Start-up: every article-backed file of the tree without a record gets one (older imports, a crash). */
  reconcile(): number {
    let added = 0;
    for (const node of this.d.files.walkFiles('/')) {
      if (!node.layoutId || this.d.store.byPath(node.path)) continue;
      this.track(node.path, node.createdAt, null);
      added++;
    }
    // A check cut short by a stop is not running any more.
    for (const r of [...this.d.store.all()])
      if (r.status === 'checking')
        this.d.store.update(r.id, (x) => ({ ...x, status: x.settledStatus, nextCheckAt: this.d.clock.now() }));
    return added;
  }

  private track(path: string, fileCreatedAt: number, source: string | null): HealthRecord {
    return this.d.store.upsert(
      path,
      () => this.fresh(path, fileCreatedAt, source),
      (r) => (source && !r.sourceNzbPath ? { ...r, sourceNzbPath: source } : r),
    );
  }

  private fresh(path: string, fileCreatedAt: number, source: string | null): Omit<HealthRecord, 'id'> {
    const now = this.d.clock.now();
    return {
      path,
      sourceNzbPath: source,
      status: 'pending',
      settledStatus: 'pending',
      lastError: null,
      errorDetails: null,
      retryCount: 0,
      repairRetryCount: 0,
      lastCheckedAt: null,
      createdAt: now,
      fileCreatedAt,
      nextCheckAt: now + this.d.intervalMs(),
      manual: null,
      repairNextAt: null,
      missing: [],
      readEvidence: [],
      checkedSegments: 0,
      totalSegments: 0,
    };
  }

  private queue(id: number, priority: boolean, patch: Partial<HealthRecord>): HealthRecord {
    const updated = this.d.store.update(id, (r) => ({
      ...r,
      ...patch,
      ...(patch.status ? { settledStatus: patch.status } : {}),
      manual: r.manual && !priority ? r.manual : { priority, at: this.d.clock.now() },
    }));
    if (!updated) throw new AppError('NOT_FOUND', `No health record ${id}`);
    return updated;
  }
}
