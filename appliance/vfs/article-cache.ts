/**
 * Recycled buffers waiting for a fetch. In a steady stream each fetch takes one as each new article evicts one,
 * so a few suffice; the cap only matters after bursts of evictions (a cache shrunk by config).
 */
const SPARE_MAX_BYTES = 16 * 1024 * 1024;

/** One decoded article, shared by every reader that wants it; `pins` counts the readers holding its bytes now. */
export interface CacheEntry {
  readonly data: Uint8Array;
  pins: number;
  /** Still in the LRU (counted in the cache size); false once evicted or never admitted. */
  cached: boolean;
}

/**
 * Decoded articles kept in memory, least recently used evicted first, bounded by the bytes actually held
 * (streaming.max_cache_size_mb). A seek back a few seconds or a second client on the same file then costs no
 * network. Map iteration order is insertion order, so re-inserting on hit keeps the oldest entry first.
 *
 * Memory: the cache also hands out the buffers articles are decoded into (`take`) and takes them back when an
 * evicted article is no longer pinned by any reader. Without that, every evicted 768 KB article waited for a
 * major GC, and a 128 MB cache held ~230 MB of ArrayBuffers under a fast stream. A buffer is reused only when
 * (a) the cache made it, (b) its article left the LRU, (c) no reader pins it, (d) its fetch completed (an
 * aborted fetch's connection may still be writing into it, so that buffer is simply dropped).
 */
export class ArticleCache {
  private readonly entries = new Map<string, CacheEntry>();
  private bytes = 0;
  private readonly free: Buffer[] = [];
  private freeBytes = 0;
  /** Buffers handed to fetches in flight: counted against the budget, so the cache bound covers them too. */
  private reserved = 0;
  private readonly owned = new WeakSet<ArrayBufferLike>();

  constructor(private maxBytes: number) {}

  get(key: string): CacheEntry | undefined {
    const e = this.entries.get(key);
    if (e) {
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    return e;
  }

  /** Whether `key` is cached, without marking it used (a look at what a stream holds must not keep it alive). */
  holds(key: string): boolean {
    return this.entries.has(key);
  }

  /** Admits a fetched article (when it fits) and returns its entry; the caller pins it for each reader. */
  add(key: string, data: Uint8Array): CacheEntry {
    const entry: CacheEntry = { data, pins: 0, cached: false };
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    if (this.held(data) <= this.maxBytes) {
      entry.cached = true;
      this.entries.set(key, entry);
      this.bytes += this.held(data);
      // The caller pins the entry for its readers right after this returns: if eviction drops it now (a cache
      // smaller than the buffers in flight), it must not recycle the buffer to the next fetch in between.
      entry.pins++;
      this.evict();
      entry.pins--;
    }
    return entry;
  }

  pin(entry: CacheEntry): void {
    entry.pins++;
  }

  unpin(entry: CacheEntry): void {
    if (--entry.pins === 0 && !entry.cached) this.recycle(entry.data);
  }

  /**
   * A buffer of at least `size` bytes to decode an article into: a recycled one when one fits, else a new one.
   * It counts against the budget until `settle`, so cached + in flight stays within max_cache_size_mb.
   */
  take(size: number): Buffer {
    const i = this.free.findIndex((b) => b.length >= size && b.length <= size * 1.25);
    let buf: Buffer;
    if (i >= 0) {
      [buf] = this.free.splice(i, 1) as [Buffer];
      this.freeBytes -= buf.length;
    } else {
      buf = Buffer.allocUnsafeSlow(size);
      this.owned.add(buf.buffer);
    }
    this.reserved += buf.length;
    this.evict();
    return buf;
  }

  /**
   * The fetch that took `buf` is over. `reusable` only when it completed without decoding into it (the article
   * was larger than expected); a failed or aborted fetch's buffer is dropped, as a connection may still write it.
   */
  settle(buf: Buffer, reusable: boolean): void {
    this.reserved -= buf.length;
    if (reusable) this.recycle(buf);
  }

  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  /** Bytes held by cached articles (their whole buffers). */
  get size(): number {
    return this.bytes;
  }

  /** Bytes held in recycled buffers waiting for the next fetch (at most SPARE_MAX_BYTES). */
  get spare(): number {
    return this.freeBytes;
  }

  private drop(key: string, e: CacheEntry): void {
    this.entries.delete(key);
    this.bytes -= this.held(e.data);
    e.cached = false;
    if (e.pins === 0) this.recycle(e.data);
  }

  private evict(): void {
    for (const [k, e] of this.entries) {
      if (this.bytes + this.reserved <= this.maxBytes) break;
      this.drop(k, e);
    }
    while (this.free.length > 0 && this.freeBytes > Math.min(SPARE_MAX_BYTES, this.maxBytes)) {
      this.freeBytes -= (this.free.pop() as Buffer).length;
    }
  }

  /** Memory an article really holds: the whole buffer when the cache made it (a view may be shorter). */
  private held(data: Uint8Array): number {
    return this.owned.has(data.buffer) ? data.buffer.byteLength : data.byteLength;
  }

  private recycle(data: Uint8Array): void {
    if (!this.owned.has(data.buffer)) return; // not ours (a test's slice, a zero-fill): left to the GC
    const buf = Buffer.from(data.buffer, 0, data.buffer.byteLength);
    if (this.freeBytes + buf.length > Math.min(SPARE_MAX_BYTES, this.maxBytes)) return;
    this.free.push(buf);
    this.freeBytes += buf.length;
  }
}
