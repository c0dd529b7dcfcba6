/**
 * The SABnzbd API's storage ports, with no storage types in them; LMDB implements them today (nzo-ids.store.ts,
 * download-totals.store.ts). Which are synchronous and why: docs/architecture.md, "Storage ports".
 */

/** Where the store's nzo_id salt lives (nzo-ids.ts). Read once, when the SABnzbd API is built. */
export interface NzoIdStore {
  /** The salt kept for this store, or `make()` kept now if there is none yet (atomically: two nodes get one salt). */
  saltOrCreate(make: () => string): Promise<string>;
}

/** What one provider delivered on one day. */
export interface DayTotals {
  /** The provider's host when last counted (a removed provider is still named in the log of days). */
  host: string;
  /** Bytes read from the provider (BODY and STAT answers alike: what crossed the wire). */
  bytes: number;
  /** Article requests sent to it. */
  tried: number;
  /** Requests it could not answer with the article (430, damaged, refused, timed out). */
  failed: number;
}

export interface DayKey {
  day: string;
  providerId: string;
}

/**
 * Download totals per provider and day. `add` is an increment the store commits asynchronously; `all` answers from
 * the copy the store keeps in memory (read once when it opens, a few hundred records a year per provider), so a
 * `server_stats` or history poll never waits for storage.
 */
export interface DownloadTotalsStore {
  /** Adds `delta` to one provider's day; the memory copy is current at once. Resolves when the write is stored. */
  add(key: DayKey, delta: DayTotals): Promise<unknown>;
  /** Resolves when every write so far is stored. */
  flushed(): Promise<void>;
  /** Every (day, provider) record. */
  all(): Iterable<DayTotals & DayKey>;
}
