import type { Clock } from '../clock/clock.js';
import type { FolderChange, MediaServerClient } from './media-server.client.js';
import type { LibraryChangeCause, LibraryChangeKind, MediaServerRefreshJson } from './mediaservers.wire.js';

/** Waits between attempts of one batch; after the last, the batch is given up (docs/mediaservers.md "Retries"). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];
/** Folders one batch holds at most; more wait for the next one. */
export const MAX_BATCH_FOLDERS = 500;

/** A folder to refresh on one server, with why and the repairs it belongs to. */
export interface QueuedChange extends FolderChange {
  cause: LibraryChangeCause;
  recordId?: number;
}

/** One attempt's outcome, as the activity list and the repair history show it. */
export interface BatchOutcome extends Omit<MediaServerRefreshJson, 'at'> {
  /** The repairs whose changes the batch carried, each with its folder as the server saw it. */
  repairs: { recordId: number; folder: string }[];
  at: number;
}

export interface RefreshQueueDeps {
  client: MediaServerClient;
  clock: Clock;
  settings: () => { debounceMs: number; timeoutMs: number };
  /** Every attempt's outcome (done, retrying, failed). */
  onOutcome(outcome: BatchOutcome): void;
}

interface Batch {
  changes: QueuedChange[];
  attempts: number;
}

/**
 * The refreshes of one media server: changes wait `debounceMs` after the first so a burst goes as one batch, each
 * folder once (the strongest kind wins: Deleted, then Created, then Modified); a batch that fails is tried again
 * after 5 s, 30 s, 2 min and 10 min, then given up. `add` never waits on the server, and nothing else does.
 */
export class RefreshQueue {
  private pending = new Map<string, QueuedChange[]>();
  private cancelDebounce: (() => void) | null = null;
  private readonly timers = new Set<() => void>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    readonly server: { name: string; kind: MediaServerRefreshJson['kind'] },
    private readonly d: RefreshQueueDeps,
  ) {}

  add(change: QueuedChange): void {
    if (this.closed) return;
    const same = this.pending.get(change.folder) ?? [];
    same.push(change);
    this.pending.set(change.folder, same);
    if (this.pending.size >= MAX_BATCH_FOLDERS) return this.flush();
    this.cancelDebounce ??= this.d.clock.schedule(() => this.flush(), this.d.settings().debounceMs);
  }

  /** Sends what waits now (the debounce cut short). */
  flush(): void {
    this.cancelDebounce?.();
    this.cancelDebounce = null;
    if (this.pending.size === 0) return;
    const changes = [...this.pending.values()].flat();
    this.pending = new Map();
    void this.attempt({ changes, attempts: 0 });
  }

  close(): void {
    this.closed = true;
    this.cancelDebounce?.();
    for (const cancel of this.timers) cancel();
    for (const c of this.inFlight) c.abort();
    this.timers.clear();
  }

  private async attempt(batch: Batch): Promise<void> {
    batch.attempts++;
    const folders = byFolder(batch.changes);
    const controller = new AbortController();
    this.inFlight.add(controller);
    const stopTimer = this.d.clock.schedule(() => controller.abort(), this.d.settings().timeoutMs);
    let error: string | null = null;
    try {
      await this.d.client.refresh(folders, controller.signal);
    } catch (err) {
      error = (err as Error).message;
    } finally {
      stopTimer();
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    const delay = RETRY_DELAYS_MS[batch.attempts - 1];
    const state = error === null ? 'done' : delay === undefined ? 'failed' : 'retrying';
    this.d.onOutcome({
      server: this.server.name,
      kind: this.server.kind,
      folders: folders.map((f) => f.folder),
      causes: [...new Set(batch.changes.map((c) => c.cause))],
      repairs: batch.changes.flatMap((c) =>
        c.recordId === undefined ? [] : [{ recordId: c.recordId, folder: c.folder }],
      ),
      state,
      attempts: batch.attempts,
      error,
      at: this.d.clock.now(),
    });
    if (state !== 'retrying') return;
    const cancel = this.d.clock.schedule(() => {
      this.timers.delete(cancel);
      void this.attempt(batch);
    }, delay!);
    this.timers.add(cancel);
  }
}

const STRENGTH: Record<LibraryChangeKind, number> = { Modified: 0, Created: 1, Deleted: 2 };

/**
 * One change per folder in the order folders first came: the strongest kind it had, except that a folder where
 * something was deleted and something created (a swap) was modified.
 */
function byFolder(changes: readonly QueuedChange[]): FolderChange[] {
  const kinds = new Map<string, Set<LibraryChangeKind>>();
  for (const c of changes) kinds.set(c.folder, (kinds.get(c.folder) ?? new Set()).add(c.kind));
  return [...kinds].map(([folder, seen]) => {
    if (seen.has('Created') && seen.has('Deleted')) return { folder, kind: 'Modified' as const };
    const kind = [...seen].reduce((a, b) => (STRENGTH[b] > STRENGTH[a] ? b : a));
    return { folder, kind };
  });
}
