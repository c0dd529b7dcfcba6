import type { ArticleCache } from './article-cache.js';

/**
 * Where decoded article bytes come from. The app adapts the NNTP pool to this: fetch on the stream lane, trying
 * every provider, and reject when none has the article (or the decode/CRC failed).
 */
export interface ArticleSource {
  fetch(messageId: string, opts: { signal: AbortSignal; groups?: string[] }): Promise<Uint8Array>;
}

interface InFlight {
  promise: Promise<Uint8Array>;
  controller: AbortController;
  waiters: number;
}

/**
 * One fetch per article no matter how many readers want it: later readers join the fetch in flight, and the
 * network request is cancelled only when every reader that wanted it has gone away.
 */
export class ArticleFetcher {
  private readonly inFlight = new Map<string, InFlight>();
  fetches = 0;
  cacheHits = 0;

  constructor(
    private readonly source: ArticleSource,
    readonly cache: ArticleCache,
  ) {}

  get(messageId: string, signal: AbortSignal, groups?: string[]): Promise<Uint8Array> {
    if (signal.aborted) return Promise.reject(abortError());
    const cached = this.cache.get(messageId);
    if (cached) {
      this.cacheHits++;
      return Promise.resolve(cached);
    }
    let entry = this.inFlight.get(messageId);
    if (!entry) entry = this.start(messageId, groups);
    const flight = entry;
    flight.waiters++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = () => {
        release();
        reject(abortError());
      };
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        signal.removeEventListener('abort', onAbort);
        if (--flight.waiters === 0 && this.inFlight.get(messageId) === flight) {
          this.inFlight.delete(messageId);
          flight.controller.abort();
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (data) => {
          release();
          resolve(data);
        },
        (err: unknown) => {
          release();
          reject(err);
        },
      );
    });
  }

  private start(messageId: string, groups?: string[]): InFlight {
    const controller = new AbortController();
    this.fetches++;
    const promise = this.source.fetch(messageId, { signal: controller.signal, groups }).then((data) => {
      if (this.inFlight.get(messageId) === entry) this.inFlight.delete(messageId);
      this.cache.set(messageId, data);
      return data;
    });
    promise.catch(() => {
      if (this.inFlight.get(messageId) === entry) this.inFlight.delete(messageId);
    });
    const entry: InFlight = { promise, controller, waiters: 0 };
    this.inFlight.set(messageId, entry);
    return entry;
  }
}

export function abortError(): Error {
  const err = new Error('The read was cancelled');
  err.name = 'AbortError';
  return err;
}
