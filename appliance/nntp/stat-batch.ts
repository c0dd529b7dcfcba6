/**
 * STAT of many articles under one promise: the health checker's and the import probe's path (docs/nntp.md,
 * "STAT batches"). One promise and one abort listener for the whole list instead of a promise, closures and a
 * listener per article; at most `window` in flight, topped up an eighth at a time, so the pool places several
 * STATs in the same tick (several per write).
 */
import { AbortedError, ArticleMissingError, type NntpError } from './errors.js';
import { asNntpError, createRequest, invalidMessageId, normalizeMessageId, type PoolRequest } from './pool-request.js';
import type { PriorityQueue } from './request-queue.js';
import type { RequestPriority } from './types.js';

export interface StatBatchOptions {
  priority?: RequestPriority;
  signal?: AbortSignal;
  /** STATs in flight at most (default 64). */
  window?: number;
}

/**
 * Each answer is exact: true (a provider has it), false (430 from every provider that should have it) or the
 * pool's error for that article (an outage, never evidence). Aborting the signal, or closing the pool (which
 * fails the waiting requests with AbortedError), rejects with AbortedError. `pump` places what was queued.
 */
export function statBatch(
  messageIds: readonly string[],
  opts: StatBatchOptions,
  queue: Pick<PriorityQueue<PoolRequest>, 'push' | 'remove'>,
  pump: () => void,
): Promise<Array<boolean | NntpError>> {
  const signal = opts.signal;
  if (signal?.aborted) return Promise.reject(new AbortedError());
  const total = messageIds.length;
  const answers = new Array<boolean | NntpError>(total);
  if (total === 0) return Promise.resolve(answers);
  const window = Math.max(1, Math.floor(opts.window ?? 64));
  // An eighth of the window at once: several STATs leave per write, and the pipeline stays nearly full (a half
  // window at once halved the rate: connections ran dry between top-ups; docs/performance.md, "Health").
  const topUp = Math.max(1, window >> 3);
  const priority = opts.priority ?? 'import';
  return new Promise((resolve, reject) => {
    const live = new Set<PoolRequest>();
    let next = 0;
    let done = 0;
    let over = false;
    const end = (err?: Error) => {
      over = true;
      signal?.removeEventListener('abort', onAbort);
      for (const r of live) {
        r.settled = true;
        queue.remove(r);
      }
      live.clear();
      if (err) reject(err);
      else resolve(answers);
    };
    const onAbort = () => end(new AbortedError());
    const answer = (index: number, err: Error | undefined) => {
      if (over) return;
      if (err instanceof AbortedError) return end(err);
      answers[index] = !err ? true : err instanceof ArticleMissingError ? false : asNntpError(err);
      if (++done === total) return end();
      // Whoever finished this request pumps right after, placing the new ones together.
      if (live.size <= window - topUp) fill();
    };
    const fill = () => {
      const now = performance.now();
      while (next < total && live.size < window) {
        const index = next++;
        const messageId = normalizeMessageId(messageIds[index]!);
        if (!messageId) {
          answers[index] = invalidMessageId(messageIds[index]);
          done++;
          continue;
        }
        const req = createRequest('stat', messageId, priority, undefined, now, (err) => {
          live.delete(req);
          answer(index, err);
        });
        live.add(req);
        queue.push(req);
      }
      if (done === total && !over) end();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    fill();
    pump();
  });
}
