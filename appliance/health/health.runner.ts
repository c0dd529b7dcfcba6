import { AsyncResource } from 'node:async_hooks';
import type { ArticleClient } from '../articles/index.js';
import type { Clock } from '../clock/clock.js';
import { isFencedOut } from '../errors/fenced-out.js';
import type { EventSink, HealthCheckDoneEvent, SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import type { FileLayout, VfsNode } from '../vfs/types.js';
import { checkFile, type CheckResult } from './health.checker.js';
import { verdictOf } from './check-plan.js';
import { spender, type HealthBudget, type Reserved, type Spender } from './health.budget.js';
import { bodiesPerCheck, statsPerCheck } from './health.pass.js';
import { recheckDelayMs, retryDelayMs, tierOf, type AgeTiers } from './health.schedule.js';
import type { HealthStore } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import { layoutFingerprint } from '../layout/index.js';
import type { VerdictActions } from './verdict-actions.port.js';

/** The part of the VFS a check needs (VfsService satisfies it). */
export interface HealthFiles {
  stat(path: string): VfsNode | undefined;
  layout(node: VfsNode): FileLayout;
}

/** Live settings from the `health` config section (docs/configuration.md). */
export interface RunnerSettings {
  enabled: boolean;
  maxConcurrent: number;
  maxRetries: number;
  intervalMs: number;
  checkAll: boolean;
  samplePercent: number;
  tiers: AgeTiers;
}

/**
 * What playback is doing (app/ answers it from the open streams and the pool): 'idle' no player reading;
 * 'streaming' a player reads and the pool keeps up: scheduled checks go one at a time with a narrow STAT window;
 * 'busy' a player reads and requests wait for connections: no scheduled check starts.
 */
export type PlaybackLoad = 'idle' | 'streaming' | 'busy';

/** STATs in flight per check while a player reads (STAT_CONCURRENCY otherwise). */
export const STREAMING_STAT_WINDOW = 8;

export interface RunnerDeps {
  store: HealthStore;
  files: HealthFiles;
  client: ArticleClient;
  clock: Clock;
  settings: () => RunnerSettings;
  /** What scheduled checks may spend (health.budget.ts); manual checks are charged to it. */
  budget: HealthBudget;
  /** Playback's load (default: always idle). */
  playback?: () => PlaybackLoad;
  /** What acts on each verdict (appliance/repair: the brake, PAR2, the arr). */
  actions: VerdictActions;
  logger: Logger;
  /** Where each check's end is announced (health.check.done: the metrics count them by outcome). */
  events?: EventSink<SpoolEvents>;
  /** True when a PAR2 repair's committed patches cover bytes [start, end) of the file (they read whole). */
  patched?: (path: string, start: number, end: number) => boolean;
}

/**
 * The health worker. Each cycle (every `check_interval_seconds`, sooner when a check is queued or due) it starts
 * checks up to `max_concurrent_jobs`: manual ones first (priority, then oldest), then scheduled ones whose time has
 * come (only while monitoring is enabled), then repairs whose back-off is over. Checks run on the health lane.
 */
export class HealthRunner {
  private readonly active = new Map<number, { controller: AbortController; done: Promise<void>; scheduled: boolean }>();
  private cancelTimer: (() => void) | undefined;
  private running = false;
  private cycling = false;
  /** Woken while a cycle ran: run another as soon as it ends (its own timer would override the wake). */
  private again = false;
  /** A wake armed a cycle that has not started yet (a check just ended): the worker is about to look again. */
  private woken = false;
  private stopped = false;
  /** Why scheduled checks waited at the last cycle, and how long until they may go (ms); null: they did not. */
  private held: { why: 'budget' | 'playback' | null; ms: number } | null = null;
  /** Tokens reserved for scheduled checks admitted and not yet started (HealthRunner.nextRecord). */
  private readonly reserved = new Map<number, Reserved>();
  readonly counters = { checked: 0, corrupted: 0, runs: 0, lastRunAt: null as number | null };
  private armInStartContext: (ms: number) => void = (ms) => this.arm(ms);

  constructor(private readonly d: RunnerDeps) {}

  /**
   * Starts the worker, again after a stop too (the node leads again: app/cluster/leadership.ts). Its cycles run in the async
   * context `start` was called in, whoever wakes it (on several nodes, the leader's term, whose writes are fenced).
   */
  start(): void {
    this.running = true;
    this.stopped = false;
    this.armInStartContext = AsyncResource.bind((ms: number) => this.arm(ms));
    this.wake();
  }

  /** Stops scheduling, cancels checks in flight and waits for them to put their records back. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    const running = [...this.active.values()];
    for (const a of running) a.controller.abort(new Error('Health worker stopping'));
    await Promise.all(running.map((a) => a.done));
  }

  /** No check running, no cycle (repairs included) in progress and none about to start. */
  get idle(): boolean {
    return this.active.size === 0 && !this.cycling && !this.woken;
  }

  get activeChecks(): number {
    return this.active.size;
  }

  /** Why scheduled checks are waiting now (the console's schedule figures); null when they are not. */
  get holding(): 'budget' | 'playback' | null {
    const { stat, body } = this.d.budget;
    return this.held?.why ?? (stat.waiting + body.waiting > 0 ? 'budget' : null);
  }

  /** Runs a cycle now (a manual check was queued, a setting changed). */
  wake(): void {
    if (!this.running || this.stopped) return;
    if (this.cycling) this.again = true;
    else {
      this.woken = true;
      this.armInStartContext(0);
    }
  }

  isChecking(id: number): boolean {
    return this.active.has(id);
  }

  /** Cancels a running check; its record returns to the status it had. */
  cancel(id: number): boolean {
    const a = this.active.get(id);
    a?.controller.abort(new Error('Check cancelled'));
    return a !== undefined;
  }

  /** Cancels a running check and waits until its record is back; false when none was running. */
  async cancelAndWait(id: number): Promise<boolean> {
    const a = this.active.get(id);
    if (!a) return false;
    a.controller.abort(new Error('Check cancelled'));
    await a.done;
    return true;
  }

  private arm(ms: number): void {
    this.cancelTimer?.();
    this.cancelTimer = this.d.clock.schedule(() => void this.cycle(), ms);
  }

  private async cycle(): Promise<void> {
    if (this.stopped) return;
    if (this.cycling) {
      this.again = true;
      return;
    }
    this.cycling = true;
    this.woken = false;
    this.again = false;
    try {
      const s = this.d.settings();
      this.held = null;
      for (;;) {
        // Every slot taken: the next cycle comes when a check ends (it wakes the worker), not before.
        if (this.active.size >= s.maxConcurrent) {
          this.held ??= { why: null, ms: s.intervalMs };
          break;
        }
        const next = await this.nextRecord(s);
        if (!next || this.stopped) break;
        this.launch(next);
      }
      await this.d.actions.runDue();
      this.counters.runs++;
      this.counters.lastRunAt = this.d.clock.now();
    } catch (err) {
      // refused because another node leads now: this worker is being stopped (the lease said so, once)
      if (!isFencedOut(err)) this.d.logger.error('health cycle failed', { error: (err as Error).message });
    }
    try {
      if (!this.stopped) await this.armNext();
    } catch (err) {
      this.d.logger.error('could not schedule the next health cycle', { error: (err as Error).message });
      if (!this.stopped) this.arm(this.d.settings().intervalMs);
    } finally {
      this.cycling = false;
    }
    if (this.again && !this.stopped) this.wake();
  }

  private async armNext(): Promise<void> {
    const s = this.d.settings();
    const due = await this.d.store.nextDueAt();
    let wait = s.intervalMs;
    if (due !== undefined && (s.enabled || (await this.d.store.manualCount()) > 0))
      wait = Math.min(wait, Math.max(0, due - this.d.clock.now()));
    // Due files held back by the budget or by playback: look again when the buckets hold enough (or next cycle).
    if (this.held) wait = Math.min(s.intervalMs, Math.max(wait, this.held.ms));
    this.arm(wait);
  }

  /**
   * The next record to check: manual ones first (they run at once, charged to the budget), then due ones while
   * playback and the budget let them. Running ones are skipped, so one more than are running is enough to look at.
   */
  private async nextRecord(s: RunnerSettings): Promise<HealthRecord | undefined> {
    const enough = this.active.size + 1;
    const idle = (rs: HealthRecord[]) => rs.find((r) => !this.active.has(r.id));
    const manual = idle(await this.d.store.manualQueue(enough));
    if (manual || !s.enabled) return manual;
    const next = idle(await this.d.store.due(this.d.clock.now(), enough));
    if (!next) return undefined;
    const load = this.d.playback?.() ?? 'idle';
    const scheduledRunning = [...this.active.values()].filter((a) => a.scheduled).length;
    if (load === 'busy' || (load === 'streaming' && scheduledRunning > 0)) {
      this.held = { why: 'playback', ms: s.intervalMs };
      return undefined;
    }
    // Start only what the buckets can pay now: the check's planned STATs and BODYs (at most a bucketful) are
    // reserved here, so checks started together do not count the same tokens. It waits only for what it sends
    // beyond them (a file bigger than a bucketful, a widening); none starts while one waits (it holds a slot).
    const { stat, body } = this.d.budget;
    if (stat.waiting + body.waiting > 0) {
      this.held = { why: 'budget', ms: s.intervalMs };
      return undefined;
    }
    const articles = this.articlesOf(next);
    const need: Reserved = {
      stat: Math.min(stat.capacity, Math.max(1, statsPerCheck(articles, s))),
      body: Math.min(body.capacity, bodiesPerCheck(articles)),
    };
    const wait = Math.max(stat.waitMs(need.stat), body.waitMs(need.body));
    if (wait > 0 || !stat.tryTake(need.stat)) {
      this.held = { why: 'budget', ms: Math.max(1, wait) };
      return undefined;
    }
    if (!body.tryTake(need.body)) {
      stat.refund(need.stat);
      this.held = { why: 'budget', ms: Math.max(1, body.waitMs(need.body)) };
      return undefined;
    }
    this.reserved.set(next.id, need);
    return next;
  }

  /** The file's article count: from its layout (0 when it left the tree: the check drops the record). */
  private articlesOf(r: HealthRecord): number {
    const node = this.d.files.stat(r.path);
    return node?.type === 'file' && node.layoutId ? this.d.files.layout(node).segments.length : 0;
  }

  private launch(record: HealthRecord): void {
    const reserved = this.reserved.get(record.id);
    this.reserved.delete(record.id);
    const spend = spender(this.d.budget, reserved);
    const scheduled = reserved !== undefined;
    const controller = new AbortController();
    const done = (async () => {
      const started = await this.d.store.update(record.id, (r) => ({
        ...r,
        status: 'checking',
        settledStatus: r.status === 'checking' ? r.settledStatus : r.status,
        // a priority check's repair stays urgent until a later check (docs/health.md "Continuity")
        repairUrgent: r.manual?.priority === true,
        manual: null,
        nextCheckAt: null,
      }));
      if (started) await this.run(started, controller.signal, spend);
    })()
      .catch((err: Error) => {
        if (!isFencedOut(err)) this.d.logger.error('health check failed', { path: record.path, error: err.message });
      })
      .finally(() => {
        spend.close();
        this.active.delete(record.id);
        this.wake();
      });
    this.active.set(record.id, { controller, done, scheduled });
  }

  private async run(record: HealthRecord, signal: AbortSignal, spend: Spender): Promise<void> {
    const node = this.d.files.stat(record.path);
    if (!node || node.type !== 'file' || !node.layoutId) {
      await this.d.store.remove(record.id); // the file left the tree: the record follows it
      return;
    }
    const s = this.d.settings();
    let result: CheckResult;
    let fingerprint: string;
    try {
      const layout = this.d.files.layout(node);
      fingerprint = layoutFingerprint(layout);
      result = await checkFile(this.d.client, {
        segments: layout.segments,
        checkAll: s.checkAll,
        samplePercent: s.samplePercent,
        evidence: record.readEvidence,
        signal,
        spend,
        window: (this.d.playback?.() ?? 'idle') === 'idle' ? undefined : STREAMING_STAT_WINDOW,
      });
    } catch (err) {
      if (!signal.aborted) this.d.logger.error('health check failed', { path: record.path, error: String(err) });
      await this.settle(record.id, signal.aborted ? 'Check cancelled' : `Check failed: ${(err as Error).message}`);
      return this.done(record, 'cancelled');
    }
    if (result.kind === 'inconclusive') return this.inconclusive(record, result);
    await this.verdict(record, result, fingerprint);
  }

  private normalDelay(r: HealthRecord): number {
    return recheckDelayMs(this.d.clock.now() - r.fileCreatedAt, this.d.settings().tiers);
  }

  /** The record's next scheduled check: its tier's interval from now (`delay` for a retry), in that tier. */
  private nextCheck(r: HealthRecord, delay = this.normalDelay(r)): Pick<HealthRecord, 'nextCheckAt' | 'tier'> {
    const now = this.d.clock.now();
    return { nextCheckAt: now + delay, tier: tierOf(now - r.fileCreatedAt, this.d.settings().tiers) };
  }

  /** Back to the status it had, scheduled as before (cancel, unexpected failure). */
  private async settle(id: number, why: string): Promise<void> {
    await this.d.store.update(id, (r) => ({
      ...r,
      status: r.settledStatus,
      lastError: why,
      ...this.nextCheck(r),
    }));
  }

  private async inconclusive(
    record: HealthRecord,
    result: Extract<CheckResult, { kind: 'inconclusive' }>,
  ): Promise<void> {
    const max = this.d.settings().maxRetries;
    await this.d.store.update(record.id, (r) => {
      const retry = r.retryCount + 1;
      const normal = this.normalDelay(r);
      const again = retry <= max;
      return {
        ...r,
        status: r.settledStatus,
        retryCount: again ? retry : 0,
        ...this.nextCheck(r, again ? retryDelayMs(retry, normal) : normal),
        lastError: again
          ? `No verdict: providers could not answer (retry ${retry} of ${max})`
          : `No verdict after ${max} retries: providers could not answer; next check on the normal schedule`,
        errorDetails: `${result.unreachable} of ${result.checked} article requests failed: ${result.reason}`,
      };
    });
    this.d.logger.warn('health check without a verdict', { path: record.path, reason: result.reason });
    this.done(record, 'inconclusive');
  }

  private done(record: HealthRecord, outcome: HealthCheckDoneEvent['outcome']): void {
    this.d.events?.emit('health.check.done', { record_id: record.id, outcome });
  }

  private async verdict(
    record: HealthRecord,
    checked: Extract<CheckResult, { kind: 'verdict' }>,
    fingerprint: string,
  ): Promise<void> {
    const now = this.d.clock.now();
    // Articles whose bytes a PAR2 repair rebuilt read whole from the patch store: they do not count against the file.
    const patched = this.d.patched;
    const open = patched ? checked.missing.filter((m) => !patched(record.path, m.start, m.end)) : checked.missing;
    const repaired = open.length < checked.missing.length;
    const result = repaired
      ? { ...checked, missing: open, status: verdictOf(checked.total, checked.checked, open) }
      : checked;
    const bad = result.missing.length > 0;
    const updated = await this.d.store.update(record.id, (r) => ({
      ...r,
      status: result.status,
      settledStatus: result.status,
      retryCount: 0,
      lastCheckedAt: now,
      ...this.nextCheck(r),
      verdict: result.status,
      missing: result.missing,
      readEvidence: [],
      checkedSegments: result.checked,
      totalSegments: result.total,
      lastError: bad ? describeBad(result.missing, result.total) : null,
      errorDetails: bad
        ? detailBad(result.missing)
        : repaired
          ? 'Repaired from PAR2: missing articles read from the patch store'
          : null,
      repairedFrom: repaired ? 'par2' : null,
    }));
    this.counters.checked++;
    if (result.status === 'corrupted') this.counters.corrupted++;
    this.done(record, result.status);
    const previous = record.settledStatus;
    await this.d.actions.verdict({ at: now, bad: result.status !== 'healthy', record: updated, previous, fingerprint });
  }
}

function describeBad(missing: HealthRecord['missing'], total: number): string {
  const damaged = missing.filter((m) => m.damaged).length;
  const gone = missing.length - damaged;
  const parts = [gone ? `${gone} missing` : '', damaged ? `${damaged} damaged` : ''].filter(Boolean).join(', ');
  return `${parts} of ${total} articles`;
}

function detailBad(missing: HealthRecord['missing']): string {
  const shown = missing
    .slice(0, 20)
    .map((m) => `#${m.index + 1} <${m.messageId}> bytes ${m.start}-${m.end - 1}${m.damaged ? ' (damaged)' : ''}`);
  return shown.join('; ') + (missing.length > 20 ? `; and ${missing.length - 20} more` : '');
}
