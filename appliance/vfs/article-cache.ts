/**
 * Decoded articles kept in memory, least recently used evicted first, bounded by total bytes
 * (streaming.max_cache_size_mb). A seek back a few seconds or a second client on the same file then costs no
 * network. Map iteration order is insertion order, so re-inserting on hit keeps the oldest entry first.
 */
export class ArticleCache {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(private maxBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const v = this.entries.get(key);
    if (v) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: Uint8Array): void {
    if (value.byteLength > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.byteLength;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.byteLength;
    this.evict();
  }

  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  get size(): number {
    return this.bytes;
  }

  private evict(): void {
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.byteLength;
    }
  }
}
