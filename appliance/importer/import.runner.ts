import { AsyncResource } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';
import { systemClock, type Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { DISK_FULL_MESSAGE, isDiskFull } from '../errors/disk-full.js';
import { isFencedOut } from '../errors/fenced-out.js';
import { ImportError, retryDelayMs } from './import-errors.js';
import { ImportStalledError, ImportWatchdog } from './import-watchdog.js';
import type { QueueService } from './queue.service.js';
import type { QueueRecord } from './queue.types.js';

export interface ImportResult {
  targetPath: string;
  fileSize: number;
  /** The files written into the virtual tree (absolute VFS paths). */
  files?: string[];
  /** Where the import strategy published the job for download clients (queue item's storagePath). */
  storagePath?: string | null;
  /** Shown on the completed queue item (warning_message). */
  warnings?: readonly string[];
  /** The NZB went to the fallback SABnzbd instead (nothing was written to the virtual tree). */
  forwarded?: { host: string; nzoId: string; reason: string };
}

/** Does one import; throws ImportError (or anything else, treated as retryable). */
export type ImportJob = (item: QueueRecord, signal: AbortSignal) => Promise<ImportResult>;

export interface RunnerOptions {
  queue: QueueService;
  job: ImportJob;
  logger: Logger;
  /** import.max_processor_workers, read once at start (docs/console-contract.md §4: changing it needs a restart). */
  workers: number;
  /** import.queue_processing_interval_seconds: how often an idle runner looks again. */
  intervalMs: number;
  /** Back-off before retry n (0-based); default 1, 2, 4 ... minutes. */
  retryDelay?: (attempt: number) => number;
  now?: () => number;
  /** import.stuck_timeout_minutes in ms (0 = off), read at each check; absent = off. */
  stuckTimeoutMs?: () => number;
  /** The stuck-import watchdog's time (default the system clock). */
  clock?: Clock;
  /** SABnzbd's pause or resume asked of this node (`pause`/`resume`), for the other nodes (app/create-app.ts). */
  onPauseChange?: (paused: boolean) => void;
  /**
   * Called once the runner has had nothing to import for `AFTER_BURST_MS` after finishing at least one import: the
   * moment to give back what the burst allocated (app/importer.ts: addons/release-memory.ts).
   */
  afterBurst?: () => void;
}

/** How long the runner stays idle after its last import before `afterBurst` (the next queued item starts sooner). */
export const AFTER_BURST_MS = 2000;

/**
 * Runs up to `workers` imports at once. It claims work when woken (a new item, a finished import) and otherwise
 * every interval, or sooner when a retry falls due. Items left 'processing' by a crash are put back at start.
 */
export class ImportRunner {
  private readonly active = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** Stopped because another node takes the queue over: imports cut short leave their items to its recovery. */
  private handingOver = false;
  private held = false;
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: (() => void) | undefined;
  /** A pass of claiming is under way (the queue answers asynchronously); a wake meanwhile asks for another. */
  private pumping = false;
  private pumpAgain = false;
  private pass: Promise<void> = Promise.resolve();
  /** `afterBurst`, pending while the runner is idle after an import; cleared when one starts. */
  private afterBurst: NodeJS.Timeout | undefined;
  /**
   * New or restarted work (a queue item added, or back to pending): claim now (appliance/app/importer.ts). Whoever
   * wakes it, the claims run in the async context `start` was called in (on several nodes, the leader's term, whose
   * writes are fenced: docs/architecture.md "Several nodes").
   */
  readonly wake = (): void => this.pumpInStartContext();
  private pumpInStartContext: () => void = () => this.pump();
  /** Import `id` made progress (its `import.progress` events, appliance/app/importer.ts): the watchdog's reset. */
  readonly progress = (id: number): void => this.watchdog.progress(id);
  private readonly watchdog: ImportWatchdog;

  constructor(private readonly o: RunnerOptions) {
    this.watchdog = new ImportWatchdog(o.clock ?? systemClock, o.stuckTimeoutMs ?? (() => 0));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.handingOver = false;
    this.pumpInStartContext = AsyncResource.bind(() => this.pump());
    // Nothing is claimed before the interrupted items are back in the queue.
    this.pumping = true;
    this.pass = this.o.queue
      .recover()
      .then(
        (recovered) => {
          if (recovered > 0)
            this.o.logger.warn('imports interrupted by a stop were put back in the queue', { count: recovered });
        },
        (err: unknown) => this.o.logger.error('putting interrupted imports back failed', { error: String(err) }),
      )
      .finally(() => {
        this.pumping = false;
        this.pump();
      });
  }

  /**
   * Stops claiming, aborts imports in progress and waits for them to put their items back. `handOver`: this node no
   * longer leads (app/cluster/leadership.ts); the items of imports cut short are left as they are, for the new leader's
   * `recover` at its start, so nothing this node writes late can undo that leader's claim.
   */
  async stop(opts: { handOver?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.handingOver ||= opts.handOver === true;
    clearTimeout(this.timer);
    clearTimeout(this.afterBurst);
    for (const controller of this.active.values()) controller.abort();
    await this.pass;
    await this.idle;
  }

  get running(): number {
    return this.active.size;
  }

  /** SABnzbd's global pause: imports in progress finish, nothing new is claimed until resume. */
  get paused(): boolean {
    return this.held;
  }

  pause(): void {
    this.applyPause(true);
    this.o.onPauseChange?.(true);
  }

  resume(): void {
    this.applyPause(false);
    this.o.onPauseChange?.(false);
  }

  /** A pause or resume asked of another node (its `onPauseChange`): applied here, not passed on. */
  applyPause(paused: boolean): void {
    this.held = paused;
    if (!paused) this.pumpInStartContext();
  }

  /** Resolves when nothing is being imported (tests and stop). */
  whenIdle(): Promise<void> {
    return this.idle;
  }

  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pass = this.claimAndSchedule()
      .catch((err: unknown) => {
        // this node no longer leads (its lease said so, once): it is being stopped
        if (!isFencedOut(err)) this.o.logger.error('claiming queue items failed', { error: String(err) });
      })
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async claimAndSchedule(): Promise<void> {
    while (!this.stopped && !this.held && this.active.size < this.o.workers) {
      const item = await this.o.queue.claim();
      if (!item) break;
      if (this.stopped) {
        // Stopped while the claim was answered: the item goes back, as interrupted imports do.
        if (!this.handingOver) await this.o.queue.recover();
        return;
      }
      this.run(item);
    }
    await this.schedule();
  }

  private async schedule(): Promise<void> {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const due = await this.o.queue.nextRetryAt();
    if (this.stopped) return;
    clearTimeout(this.timer);
    const now = (this.o.now ?? Date.now)();
    const wait = due === undefined ? this.o.intervalMs : Math.max(0, Math.min(this.o.intervalMs, due - now));
    this.timer = setTimeout(() => this.pump(), wait);
    this.timer.unref();
  }

  private run(item: QueueRecord): void {
    const controller = new AbortController();
    // One import has up to ~24 NNTP requests in flight on this signal, each listening for abort.
    setMaxListeners(64, controller.signal);
    if (this.active.size === 0) this.idle = new Promise((r) => (this.settleIdle = r));
    clearTimeout(this.afterBurst);
    this.active.set(item.id, controller);
    const started = Date.now();
    this.o.logger.info('import started', { id: item.id, nzb: item.nzbPath, attempt: item.retryCount + 1 });
    // A stalled import is aborted and its item retried at once, even if the job ignores the abort and never settles.
    let unwatch: () => void = () => undefined;
    const stalled = new Promise<never>((_, reject) => {
      unwatch = this.watchdog.watch(item.id, (err) => {
        this.o.logger.warn('import stalled: aborted to be retried', { id: item.id, error: err.message });
        controller.abort(err);
        reject(err);
      });
    });
    stalled.catch(() => undefined);
    void Promise.race([this.o.job(item, controller.signal), stalled])
      .then(
        async (result) => {
          await this.o.queue.complete(item.id, result);
          this.o.logger.info('import completed', { id: item.id, target: result.targetPath, ms: Date.now() - started });
        },
        (err: unknown) => this.failed(item, stalledBy(controller.signal) ?? err, controller.signal.aborted),
      )
      .catch((err: unknown) => {
        if (!isFencedOut(err))
          this.o.logger.error('queue update after import failed', { id: item.id, error: String(err) });
      })
      .finally(() => {
        unwatch();
        this.active.delete(item.id);
        if (this.active.size === 0) {
          this.settleIdle?.();
          this.scheduleAfterBurst();
        }
        this.pump();
      });
  }

  private scheduleAfterBurst(): void {
    const after = this.o.afterBurst;
    if (!after || this.stopped) return;
    clearTimeout(this.afterBurst);
    this.afterBurst = setTimeout(() => {
      if (this.active.size === 0 && !this.stopped) after();
    }, AFTER_BURST_MS);
    this.afterBurst.unref();
  }

  private async failed(item: QueueRecord, err: unknown, aborted: boolean): Promise<void> {
    // Another node leads now and does this item over: nothing is written for it here.
    if (isFencedOut(err)) return;
    if (aborted && this.stopped && !(err instanceof ImportStalledError)) {
      // Stopping, not failing: the item goes back as it was and runs again after the restart (or, handing over,
      // when the new leader recovers it).
      if (!this.handingOver) await this.o.queue.recover();
      return;
    }
    // A full disk is said as such (the raw LMDB text means nothing to a user); it is retried like an outage.
    const message = isDiskFull(err) ? DISK_FULL_MESSAGE : err instanceof Error ? err.message : String(err);
    // Only an ImportError may say "do not retry": anything else escaping an import is treated as retryable.
    const retryable = !(err instanceof ImportError) || err.retryable;
    const canRetry = retryable && item.retryCount < item.maxRetries;
    const now = (this.o.now ?? Date.now)();
    const retryAt = canRetry ? now + (this.o.retryDelay ?? retryDelayMs)(item.retryCount) : null;
    const text = canRetry || !retryable ? message : `${message} (gave up after ${item.retryCount + 1} attempts)`;
    await this.o.queue.fail(item.id, text, retryAt, err instanceof ImportError ? err.code : undefined);
    this.o.logger.warn('import failed', { id: item.id, error: message, retry_at: retryAt, retryable });
  }
}

/** The watchdog's reason when it aborted this import: the import's own error then is only the abort's echo. */
function stalledBy(signal: AbortSignal): ImportStalledError | undefined {
  return signal.aborted && signal.reason instanceof ImportStalledError ? signal.reason : undefined;
}
