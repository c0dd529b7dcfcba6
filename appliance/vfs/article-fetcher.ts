import type { LinkFacts } from '../nntp/pool.js';
import type { ReaderKind } from '../nntp/types.js';
import type { ArticleCache, CacheEntry } from './article-cache.js';

/**
 * Where decoded article bytes come from. The app adapts the NNTP pool to this: fetch on the stream lane, trying
 * every provider, and reject when none has the article (or the decode/CRC failed). `into` is a buffer to decode
 * into when it is large enough (the result is then a view of it); a source may ignore it.
 */
export interface ArticleSource {
  fetch(
    messageId: string,
    opts: { signal: AbortSignal; groups?: string[]; into?: Buffer } & FetchHow,
  ): Promise<Uint8Array>;
  /** A reader now waits for an article fetched as read-ahead: the source may move it ahead of other read-ahead. */
  promote?(messageId: string): void;
  /**
   * Whether the article's fetch is on the wire now (its command sent to a provider): its bytes come whether or not
   * anyone still wants them, so a fetch its readers left is kept and lands in the cache.
   */
  onWire?(messageId: string): boolean;
  /**
   * Nobody waits for the article's fetch on the wire any more (`left` true), or someone does again (false): one left
   * behind that fails is not tried again elsewhere.
   */
  leftBehind?(messageId: string, left: boolean): void;
  /**
   * Whether these bytes (as `fetch` returned them) came from this node's disk (the probe cache) rather than from a
   * provider: a read of them is no news about the providers (the reader reports no recovery).
   */
  fromDisk?(data: Uint8Array): boolean;
  /** What the source measured of its link (round trip, delivery rate), for sizing a stream's window. */
  link?(): LinkFacts | undefined;
}

/**
 * How a fetch goes to the pool (docs/streaming.md, "Reader classes"): `urgent`, a reader waits for it right now
 * (the first article after a seek); `reader`, a player or a scanner; `readAhead`, fetched ahead of the reader;
 * `stream`, the read handle it is for. The reader that starts a fetch decides; one that joins it changes nothing.
 */
export interface FetchHow {
  urgent?: boolean;
  reader?: ReaderKind;
  readAhead?: boolean;
  stream?: number;
  /** When the article was posted (ms since the epoch, from the NZB): the pool routes by providers' retention. */
  postedAt?: number;
  /** One a library scan reads (a media file's first or last article, vfs/probe-articles.ts): kept on disk. */
  keep?: boolean;
}

/** A reader's hold on an article's bytes: valid until `release()`, after which the buffer may be reused. */
export interface Lease {
  readonly data: Uint8Array;
  release(): void;
}

interface Waiter {
  resolve(entry: CacheEntry): void;
  reject(err: unknown): void;
}

interface InFlight {
  controller: AbortController;
  waiters: Set<Waiter>;
  /** Started as a player's read-ahead, and nobody has waited for it urgently yet. */
  ahead: boolean;
  /** Every reader left while it was on the wire: kept for the cache (ArticleSource.leftBehind). */
  kept?: boolean;
}

/**
 * One fetch per article no matter how many readers want it: later readers join the fetch in flight, and the
 * network request is cancelled only when every reader that wanted it has gone away while it still waits for a
 * connection (one already on the wire completes into the cache). Every reader gets a pinned
 * lease, taken synchronously when the fetch completes, so the article's buffer is never reused under it.
 */
export class ArticleFetcher {
  private readonly inFlight = new Map<string, InFlight>();
  fetches = 0;
  cacheHits = 0;

  constructor(
    private readonly source: ArticleSource,
    readonly cache: ArticleCache,
  ) {}

  /**
   * The article's bytes; `size` (expected decoded size, 0 if unknown) sizes the buffer it is decoded into.
   * `how`: its lane in the pool (urgent, player or scanner, read-ahead; FetchHow).
   */
  get(messageId: string, signal: AbortSignal, size = 0, groups?: string[], how: FetchHow = {}): Promise<Lease> {
    if (signal.aborted) return Promise.reject(abortError());
    const cached = this.cache.get(messageId);
    if (cached) {
      this.cacheHits++;
      this.cache.pin(cached);
      return Promise.resolve(this.lease(cached));
    }
    let flight = this.inFlight.get(messageId);
    if (!flight) flight = this.start(messageId, size, groups, how);
    else {
      if (flight.kept) {
        // a reader wants what was kept only for the cache: a failure may be tried elsewhere again
        flight.kept = false;
        this.source.leftBehind?.(messageId, false);
      }
      if (!how.readAhead && flight.ahead) {
        // a reader waits for what was read ahead (the first article of its read, or a later one: a read the kernel
        // split, or one spanning articles): it goes before the rest of the read-ahead
        flight.ahead = false;
        this.source.promote?.(messageId);
      }
    }
    const joined = flight;
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = () => {
        joined.waiters.delete(waiter);
        // The last reader left: cancel the fetch while it waits for a connection; once on the wire its bytes come
        // anyway, so it stays (a later reader joins it) and lands in the cache. A player's seek to its index used
        // to throw away the read-ahead its header read had on the wire, and its return to play fetched it again.
        if (joined.waiters.size === 0 && this.inFlight.get(messageId) === joined) {
          if (this.source.onWire?.(messageId) === true) {
            joined.kept = true;
            this.source.leftBehind?.(messageId, true);
          } else {
            this.inFlight.delete(messageId);
            joined.controller.abort();
          }
        }
        reject(abortError());
      };
      const waiter: Waiter = {
        resolve: (entry) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.lease(entry));
        },
        reject: (err) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      joined.waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private lease(entry: CacheEntry): Lease {
    let held = true;
    return {
      data: entry.data,
      release: () => {
        if (!held) return;
        held = false;
        this.cache.unpin(entry);
      },
    };
  }

  private start(messageId: string, size: number, groups: string[] | undefined, how: FetchHow): InFlight {
    const controller = new AbortController();
    const flight: InFlight = {
      controller,
      waiters: new Set(),
      ahead: how.readAhead === true && how.reader !== 'scanner',
    };
    this.inFlight.set(messageId, flight);
    this.fetches++;
    const into = size > 0 ? this.cache.take(size) : undefined;
    const done = () => {
      if (this.inFlight.get(messageId) === flight) this.inFlight.delete(messageId);
      const waiters = [...flight.waiters];
      flight.waiters.clear();
      return waiters;
    };
    this.source.fetch(messageId, { ...how, signal: controller.signal, groups, into }).then(
      (data) => {
        if (into) this.cache.settle(into, data.buffer !== into.buffer);
        const entry = this.cache.add(messageId, data);
        for (const w of done()) {
          this.cache.pin(entry); // before any other code runs: nothing can evict and reuse it in between
          w.resolve(entry);
        }
      },
      // An aborted or failed fetch keeps its buffer away from reuse: a connection may still be writing into it.
      (err: unknown) => {
        if (into) this.cache.settle(into, false);
        for (const w of done()) w.reject(err);
      },
    );
    return flight;
  }
}

export function abortError(): Error {
  const err = new Error('The read was cancelled');
  err.name = 'AbortError';
  return err;
}
