import type { Clock } from '../clock/clock.js';

/** How often a watchdog that is off (timeout 0) looks again whether it was turned on. */
const OFF_RECHECK_MS = 60_000;

/** The reason an import's signal is aborted with when it made no progress for too long. */
export class ImportStalledError extends Error {
  constructor(readonly minutes: number) {
    super(`No progress for ${minutes} minute${minutes === 1 ? '' : 's'}; the import was stopped to be retried`);
    this.name = 'ImportStalledError';
  }
}

/**
 * `import.stuck_timeout_minutes` (docs/import.md "Stuck imports"): each import being run is watched; every
 * `import.progress` event of it (a stage begun, a file laid out) resets its time, and one that stays silent for the
 * timeout is stalled: `onStall` gets an ImportStalledError (the runner aborts the import with it and retries it).
 * Time is the injected clock's; the timeout is read at each check, so a change applies to imports already running.
 */
export class ImportWatchdog {
  private readonly watched = new Map<number, { last: number; cancel: () => void }>();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: () => number,
  ) {}

  /** Starts watching import `id`; `onStall` runs at most once. The returned function stops watching. */
  watch(id: number, onStall: (err: ImportStalledError) => void): () => void {
    const entry = { last: this.clock.now(), cancel: () => undefined as void };
    const check = () => {
      if (this.watched.get(id) !== entry) return;
      const timeout = this.timeoutMs();
      const idle = this.clock.now() - entry.last;
      if (timeout > 0 && idle >= timeout) {
        this.watched.delete(id);
        onStall(new ImportStalledError(Math.round(timeout / 60_000)));
        return;
      }
      entry.cancel = this.clock.schedule(check, timeout > 0 ? timeout - idle : OFF_RECHECK_MS);
    };
    this.watched.get(id)?.cancel();
    this.watched.set(id, entry);
    check();
    return () => {
      if (this.watched.get(id) !== entry) return;
      entry.cancel();
      this.watched.delete(id);
    };
  }

  /** Import `id` made progress: its silence starts again from now. */
  progress(id: number): void {
    const entry = this.watched.get(id);
    if (entry) entry.last = this.clock.now();
  }

  /** Imports being watched (tests). */
  get size(): number {
    return this.watched.size;
  }
}
