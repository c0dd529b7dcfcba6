import { AppError } from '../errors/app-error.js';
import type { QueueStore } from './queue.port.js';

/**
 * `import.max_queued_items` (docs/import.md "Admission control"): while that many items are unfinished (pending,
 * retrying or processing: everything the SABnzbd queue shows), a new NZB is refused with QUEUE_FULL, before anything
 * is stored. SABnzbd's addfile/addurl turn the refusal into `{status: false, error}` (the arrs keep the grab and try
 * again later), the console's upload into the coded error. 0 = no limit.
 *
 * Strictness: the count and the insert of one add run one after another, never interleaved with another add's, so
 * in one process a burst of concurrent adds stops exactly at the limit (adds still compress their NZB in parallel;
 * only the count and the insert wait their turn). A store shared by several processes could overshoot by at most one
 * item per process.
 */
export class QueueAdmission {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Pick<QueueStore, 'counts'>,
    private readonly limit: () => number,
  ) {}

  /** Throws QUEUE_FULL when the queue holds `limit` unfinished items or more; cheap (three counters). */
  async check(): Promise<void> {
    const limit = this.limit();
    if (limit <= 0) return;
    const c = await this.store.counts();
    const unfinished = c.pending + c.retrying + c.processing;
    if (unfinished >= limit) throw queueFull(unfinished, limit);
  }

  /** Runs `insert` once the queue has room, with no other admitted insert between the count and it. */
  admitted<T>(insert: () => Promise<T>): Promise<T> {
    if (this.limit() <= 0) return insert();
    const run = this.turn.then(async () => {
      await this.check();
      return insert();
    });
    this.turn = run.catch(() => undefined);
    return run;
  }
}

function queueFull(unfinished: number, limit: number): AppError {
  return new AppError(
    'QUEUE_FULL',
    `The Spool queue is full: ${unfinished} ${unfinished === 1 ? 'item is' : 'items are'} waiting or importing and the limit (import.max_queued_items) is ${limit}; try again later`,
  );
}
