import type { Clock } from '../clock/clock.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { ArticleFailure, FileHealth } from '../vfs/types.js';
import type { HealthListQuery, HealthStore, HealthWrite, NewHealthRecord } from './health.port.js';
import type { HealthFiles, HealthRunner } from './health.runner.js';
import type { HealthRecord } from './health.types.js';
import { unavailableIds } from './health.verdicts.js';
import type { HealthStatsJson, HealthWorkerStatusJson } from './health.wire.js';
import type { VerdictActions } from './verdict-actions.port.js';

export interface HealthServiceDeps {
  store: HealthStore;
  files: HealthFiles & {
    walkFiles(path?: string): Iterable<{ path: string; layoutId?: string; createdAt: number }>;
    /** The tree's write count (VfsService.treeWrites): start walks the tree only when it moved since the last stop. */
    treeWrites(): number;
  };
  runner: HealthRunner;
  /** What acts on verdicts (appliance/repair): a repair asked for, the brake's hold. */
  actions: VerdictActions;
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

  async byPath(path: string): Promise<HealthRecord> {
    const r = await this.d.store.byPath(path);
    if (!r) throw new AppError('NO_SUCH_RECORD', `No health record for ${path}`);
    return r;
  }

  async byId(id: number): Promise<HealthRecord> {
    const r = await this.d.store.get(id);
    if (!r) throw new AppError('NO_SUCH_RECORD', `No health record ${id}`);
    return r;
  }

  async remove(id: number): Promise<HealthRecord> {
    this.d.runner.cancel(id);
    const r = await this.d.store.remove(id);
    if (!r) throw new AppError('NO_SUCH_RECORD', `No health record ${id}`);
    return r;
  }

  async bulkDelete(paths: readonly string[]): Promise<{ deleted: number; missing: string[] }> {
    const found = await Promise.all(paths.map((p) => this.d.store.byPath(p)));
    for (const r of found) if (r) this.d.runner.cancel(r.id);
    const done = await this.d.store.commit(found.filter((r) => r).map((r) => ({ op: 'remove', id: r!.id })));
    return { deleted: count(done), missing: paths.filter((_, i) => !found[i]) };
  }

  /** Restart: back to pending and queued for a check now, retry counts reset. */
  async bulkRestart(paths: readonly string[]): Promise<{ restarted: number; missing: string[] }> {
    const found = await Promise.all(paths.map((p) => this.d.store.byPath(p)));
    const patch: Partial<HealthRecord> = { status: 'pending', retryCount: 0, lastError: null, errorDetails: null };
    const done = await this.d.store.commit(
      found
        .filter((r) => r)
        .map((r) => ({ op: 'update', id: r!.id, change: (x: HealthRecord) => this.queued(x, false, patch) })),
    );
    this.d.runner.wake();
    return { restarted: count(done), missing: paths.filter((_, i) => !found[i]) };
  }

  /** POST /health/{path}/retry: check again now; `resetStatus` also forgets the verdict and the retry count. */
  async retry(path: string, resetStatus: boolean): Promise<HealthRecord> {
    const r = await this.byPath(path);
    const patch: Partial<HealthRecord> = resetStatus ? { status: 'pending', retryCount: 0, lastError: null } : {};
    const updated = await this.queue(r.id, false, patch);
    this.d.runner.wake();
    return updated;
  }

  repair(id: number, resetCount: boolean): Promise<HealthRecord> {
    return this.d.actions.repairNow(id, resetCount);
  }

  /** POST /health/check: track the file if needed and queue it (priority jumps ahead of other manual checks). */
  async check(filePath: string, sourceNzbPath: string | undefined, priority: boolean): Promise<HealthRecord> {
    const node = this.d.files.stat(filePath);
    if (!node || node.type !== 'file' || !node.layoutId)
      throw new AppError('NO_SUCH_PATH', `No article-backed file at ${filePath}`);
    const source = sourceNzbPath || node.sourceNzbPath || null;
    const updated = await this.d.store.upsert(
      node.path,
      () => this.queued(this.fresh(node.path, node.createdAt, source), priority, {}),
      (r) => this.queued(tracked(r, source), priority, {}),
    );
    this.d.runner.wake();
    return updated;
  }

  async checkNow(id: number): Promise<HealthRecord> {
    await this.byId(id);
    const updated = await this.queue(id, true, {});
    this.d.runner.wake();
    return updated;
  }

  async cancel(id: number): Promise<HealthRecord> {
    const r = await this.byId(id);
    if (!(await this.d.runner.cancelAndWait(id))) {
      if (r.manual)
        return (await this.d.store.update(id, (x) => ({ ...x, manual: null, lastError: 'Check cancelled' }))) ?? r;
      throw new AppError('NO_SUCH_RECORD', `No check is running or queued for ${r.path}`);
    }
    return (await this.d.store.get(id)) ?? r;
  }

  /** DELETE /health/cleanup: records created before `olderThan` (ms), optionally only some statuses. */
  async cleanup(olderThan: number, statuses?: readonly string[]): Promise<number> {
    const doomed = (await this.d.store.all()).filter(
      (r) => r.createdAt < olderThan && r.status !== 'checking' && (!statuses || statuses.includes(r.status)),
    );
    return count(await this.d.store.commit(doomed.map((r) => ({ op: 'remove', id: r.id }))));
  }

  async stats(): Promise<HealthStatsJson> {
    const c = await this.d.store.counts();
    const total = Object.values(c).reduce((a, b) => a + b, 0);
    return { total, ...c };
  }

  async workerStatus(): Promise<HealthWorkerStatusJson> {
    const k = this.d.runner.counters;
    const paused = this.d.actions.heldReason();
    return {
      status: this.d.enabled() ? 'running' : 'stopped',
      pending_manual_checks: await this.d.store.manualCount(),
      total_files_checked: k.checked,
      total_files_corrupted: k.corrupted,
      total_runs_completed: k.runs,
      last_run_time: k.lastRunAt === null ? null : new Date(k.lastRunAt).toISOString(),
      active_checks: this.d.runner.activeChecks,
      repair_paused: paused !== null,
      repair_paused_reason: paused,
    };
  }

  /**
   * What GET /api/files/info shows of a file: the last verdict, and the message ids known unavailable (the last
   * verdict's missing articles and reads' evidence since).
   */
  async fileHealth(path: string): Promise<FileHealth> {
    const r = await this.d.store.byPath(path);
    if (!r) return {};
    return { ...(r.verdict ? { verdict: r.verdict } : {}), unavailable: unavailableIds(r) };
  }

  // ---- hooks -------------------------------------------------------------------------------------------------

  /** A job wrote files (import completed): each gets a record, pending; a path that had one starts over. */
  async filesAdded(paths: readonly string[]): Promise<void> {
    const nodes = paths.map((p) => this.d.files.stat(p)).filter((n) => n?.layoutId !== undefined);
    const now = this.d.clock.now();
    await this.d.store.commit(
      nodes.map((node) => {
        const { path, createdAt } = node!;
        const fresh = () => this.fresh(path, createdAt, node!.sourceNzbPath ?? null);
        return {
          op: 'upsert',
          path,
          create: fresh,
          // Same file (a check, a read or the start's walk tracked it first): keep what is known, and learn its
          // NZB if that did not know it. A new file at the path: start over.
          change: (r) =>
            r.fileCreatedAt === createdAt
              ? tracked(r, node!.sourceNzbPath ?? null)
              : { ...fresh(), id: r.id, createdAt: r.createdAt, nextCheckAt: now + this.d.intervalMs() },
        } satisfies HealthWrite;
      }),
    );
    this.d.runner.wake();
  }

  /** Paths (files or directories) left the tree: their records follow. */
  async filesRemoved(paths: readonly string[]): Promise<void> {
    const found = await Promise.all(
      paths.map(async (p) => [await this.d.store.byPath(p), ...(await this.d.store.under(p))]),
    );
    const gone = found.flat().filter((r) => r !== undefined);
    for (const r of gone) this.d.runner.cancel(r.id);
    await this.d.store.commit(gone.map((r) => ({ op: 'remove', id: r.id })));
  }

  /** A directory or file moved: its records move with it. */
  async filesMoved(from: string, to: string): Promise<void> {
    const moving = [...(await this.d.store.under(from)), await this.d.store.byPath(from)];
    await this.d.store.commit(
      moving
        .filter((r) => r !== undefined)
        .map((r) => ({ op: 'rename', id: r.id, path: to + r.path.slice(from.length) })),
    );
  }

  /**
   * A read could not get an article: 430 on every provider or a damaged body. That is evidence, not a verdict:
   * remembered on the record (the file's info shows the segment unavailable) and a check queued while monitoring
   * is on. Outages never come here (the reader reports them as 'article-unreachable').
   */
  async readFailed(f: ArticleFailure): Promise<void> {
    const node = this.d.files.stat(f.path);
    if (!node || !node.layoutId) return;
    const now = this.d.clock.now();
    const enabled = this.d.enabled();
    let queued = false;
    const withEvidence = <R extends NewHealthRecord>(r: R, checking: boolean): R => {
      queued = enabled && !r.manual && !checking;
      return {
        ...r,
        readEvidence: r.readEvidence.includes(f.messageId)
          ? r.readEvidence
          : [...r.readEvidence, f.messageId].slice(-1000),
        manual: queued ? { priority: true, at: now } : r.manual,
      };
    };
    const source = node.sourceNzbPath ?? null;
    await this.d.store.upsert(
      node.path,
      () => withEvidence(this.fresh(node.path, node.createdAt, source), false),
      (r) => withEvidence(tracked(r, source), this.d.runner.isChecking(r.id)),
    );
    if (queued) this.d.runner.wake();
  }

  /** A read got an article that was marked missing: the mark (verdict or read evidence) is out of date. */
  async readRecovered(path: string, messageIds: readonly string[]): Promise<void> {
    const r = await this.d.store.byPath(path);
    if (!r) return;
    const back = new Set(messageIds);
    await this.d.store.update(r.id, (x) => ({
      ...x,
      missing: x.missing.filter((m) => !back.has(m.messageId)),
      readEvidence: x.readEvidence.filter((id) => !back.has(id)),
    }));
  }

  /**
   * Start-up: every article-backed file of the tree without a record gets one (older imports, a crash, tree
   * writes after health stopped following), and checks a stop cut short settle. The walk of the tree and of every
   * record runs only when the tree's write count differs from the one health noted when it last stopped in step
   * with it (`markInStep`); the note is cleared here, so after a crash there is none and the walk runs. Resolves
   * to the records added and the write count health is now in step with.
   */
  async reconcile(): Promise<{ added: number; treeWrites: number }> {
    const now = this.d.clock.now();
    const treeWrites = this.d.files.treeWrites();
    const inStep = (await this.d.store.inStepAt()) === treeWrites;
    await this.d.store.setInStepAt(undefined);
    const writes: HealthWrite[] = [];
    if (!inStep) {
      const known = new Set((await this.d.store.all()).map((r) => r.path));
      for (const node of this.d.files.walkFiles('/')) {
        if (!node.layoutId || known.has(node.path)) continue;
        // The walk's nodes are light: a file without a record is looked up once more for its NZB.
        const source = this.d.files.stat(node.path)?.sourceNzbPath ?? null;
        const fresh = () => this.fresh(node.path, node.createdAt, source);
        writes.push({ op: 'upsert', path: node.path, create: fresh, change: (r) => r });
      }
    }
    const added = writes.length;
    // A check cut short by a stop is not running any more.
    for (const r of await this.d.store.withStatus('checking'))
      writes.push({
        op: 'update',
        id: r.id,
        change: (x) => (x.status === 'checking' ? { ...x, status: x.settledStatus, nextCheckAt: now } : null),
      });
    await this.d.store.commit(writes);
    return { added, treeWrites };
  }

  /** Stop: health has applied every tree change up to this write count; the next start may skip its walk. */
  async markInStep(treeWrites: number): Promise<void> {
    await this.d.store.setInStepAt(treeWrites);
  }

  private fresh(path: string, fileCreatedAt: number, source: string | null): NewHealthRecord {
    const now = this.d.clock.now();
    return {
      path,
      sourceNzbPath: source,
      status: 'pending',
      settledStatus: 'pending',
      verdict: null,
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

  private async queue(id: number, priority: boolean, patch: Partial<HealthRecord>): Promise<HealthRecord> {
    const updated = await this.d.store.update(id, (r) => this.queued(r, priority, patch));
    if (!updated) throw new AppError('NO_SUCH_RECORD', `No health record ${id}`);
    return updated;
  }

  /** The record queued for a manual check (a priority request moves a queued one forward). */
  private queued<R extends NewHealthRecord>(r: R, priority: boolean, patch: Partial<HealthRecord>): R {
    return {
      ...r,
      ...patch,
      ...(patch.status ? { settledStatus: patch.status } : {}),
      manual: r.manual && !priority ? r.manual : { priority, at: this.d.clock.now() },
    };
  }
}

/** A record already there, given the source NZB path when it had none. */
function tracked(r: HealthRecord, source: string | null): HealthRecord {
  return source && !r.sourceNzbPath ? { ...r, sourceNzbPath: source } : r;
}

/** How many writes of a unit found their record. */
function count(done: readonly (HealthRecord | undefined)[]): number {
  return done.filter((r) => r !== undefined).length;
}
