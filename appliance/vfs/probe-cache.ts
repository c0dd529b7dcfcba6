import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from '../logging/logger.js';

/** `SPPC`, a format version, the article's length and its CRC-32: a file is served only when all four agree. */
const MAGIC = 0x53505043;
const VERSION = 1;
export const PROBE_FILE_HEADER = 16;

/** What the cache did since it opened (the metrics show it). */
export interface ProbeCacheCounts {
  hits: number;
  stored: number;
  evicted: number;
  /** Files found damaged (their length or CRC wrong) and removed: served from the providers instead. */
  damaged: number;
}

/**
 * The articles a library scan reads, kept on disk (docs/streaming.md, "The probe cache"): a media server's scanner
 * or an arr's ffprobe reads a file's head, its tail and its index (an MP4's moov), and only those; kept here, such a
 * probe costs the providers nothing and leaves the link to the players. One file per article under `dir`
 * (`<first two hex>/<sha-256 of the message id>`), written to a temporary name and renamed, so a file is whole or
 * absent; each carries its length and CRC-32, and one that disagrees is removed and never served (the providers are
 * asked instead: a damaged cache file is no evidence about the article). Bounded by `budgetBytes()`
 * (streaming.probe_cache_size_mb, read live: 0 turns it off and empties it), least recently used removed first; use
 * order survives a restart as the files' modification times.
 */
export class ProbeCache {
  /** Insertion order is use order: the first entry is the least recently used. Value: bytes on disk. */
  private readonly entries = new Map<string, number>();
  /** Writes in flight, by key. */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly pending = new Set<Promise<void>>();
  private bytes = 0;
  private loaded = false;
  private writeFailed = false;
  readonly counts: ProbeCacheCounts = { hits: 0, stored: 0, evicted: 0, damaged: 0 };
  /** Settles when the files on disk are indexed (lookups before that miss). */
  readonly ready: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly budgetBytes: () => number,
    private readonly logger?: Logger,
  ) {
    this.ready = this.load().catch((err: Error) => {
      this.logger?.warn('probe cache not read; starting empty', { dir, error: err.message });
      this.loaded = true;
    });
  }

  /** Bytes on disk now (headers included). */
  get size(): number {
    return this.bytes;
  }

  /** How many articles it holds. */
  get articles(): number {
    return this.entries.size;
  }

  /** Whether the article is held (no disk read, no use recorded). */
  holds(messageId: string): boolean {
    return this.entries.has(keyOf(messageId));
  }

  /**
   * The article's decoded bytes, or undefined when not held (or its file is damaged: then removed). Read into
   * `into` when it is large enough (the result is then a view of it).
   */
  async get(messageId: string, into?: Buffer): Promise<Uint8Array | undefined> {
    this.trim();
    const key = keyOf(messageId);
    const size = this.entries.get(key);
    if (size === undefined) return undefined;
    const data = await this.readFile(key, size, into);
    if (!data) return undefined;
    this.counts.hits++;
    if (this.entries.delete(key)) {
      this.entries.set(key, size);
      const now = new Date();
      utimes(this.pathOf(key), now, now).catch(() => undefined); // the use order a restart reads back
    }
    return data;
  }

  /**
   * Keeps a copy of the article (taken at once: the caller's buffer may be reused as soon as this returns). Settles
   * when the file has landed (or was not written); never rejects: a disk that refuses the write is logged once and
   * the article is simply not kept.
   */
  put(messageId: string, data: Uint8Array): Promise<void> {
    const bytes = PROBE_FILE_HEADER + data.byteLength;
    if (!this.loaded || bytes > this.budgetBytes()) return Promise.resolve();
    const key = keyOf(messageId);
    if (this.entries.has(key)) return Promise.resolve();
    const inFlight = this.writing.get(key);
    if (inFlight) return inFlight;
    const written = this.write(key, encode(data)).finally(() => {
      this.writing.delete(key);
      this.pending.delete(written);
    });
    this.writing.set(key, written);
    this.pending.add(written);
    return written;
  }

  /** Settles when every write asked so far has landed or been given up. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async write(key: string, file: Buffer): Promise<void> {
    const path = this.pathOf(key);
    const temp = `${path}.tmp-${process.pid}`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(temp, file);
      await rename(temp, path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      if (!this.writeFailed) {
        this.writeFailed = true;
        this.logger?.warn('probe cache: an article could not be written; articles are not kept while this lasts', {
          dir: this.dir,
          error: (err as Error).message,
        });
      }
      return;
    }
    this.writeFailed = false;
    this.entries.set(key, file.byteLength);
    this.bytes += file.byteLength;
    this.counts.stored++;
    this.trim();
  }

  /** Removes the least recently used files until the cache fits its budget (the app calls it when config changes). */
  trim(): void {
    const budget = this.budgetBytes();
    for (const [key, size] of this.entries) {
      if (this.bytes <= budget) return;
      this.forget(key, size);
      this.counts.evicted++;
      unlink(this.pathOf(key)).catch(() => undefined);
    }
  }

  private forget(key: string, size: number): void {
    if (this.entries.delete(key)) this.bytes -= size;
  }

  private async readFile(key: string, size: number, into?: Buffer): Promise<Uint8Array | undefined> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
      const header = Buffer.alloc(PROBE_FILE_HEADER);
      await handle.read(header, 0, PROBE_FILE_HEADER, 0);
      const length = header.readUInt32BE(8);
      const whole =
        header.readUInt32BE(0) === MAGIC && header.readUInt8(4) === VERSION && size === PROBE_FILE_HEADER + length;
      if (whole) {
        const out = into && into.byteLength >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(out, 0, length, PROBE_FILE_HEADER);
        if (bytesRead === length && crc32(out) === header.readUInt32BE(12)) return out;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.forget(key, size); // removed under us: nothing to count as damaged
        return undefined;
      }
    } finally {
      await handle?.close().catch(() => undefined);
    }
    this.counts.damaged++;
    this.forget(key, size);
    this.logger?.warn('probe cache: a damaged file was removed (the article is fetched from the providers)', {
      file: this.pathOf(key),
    });
    unlink(this.pathOf(key)).catch(() => undefined);
    return undefined;
  }

  /** Indexes the files already on disk, oldest use first; temporary files a crash left are removed. */
  private async load(): Promise<void> {
    const found: { key: string; size: number; used: number }[] = [];
    const shards = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await readdir(join(this.dir, shard))) {
        const path = join(this.dir, shard, name);
        if (!/^[0-9a-f]{64}$/.test(name)) {
          if (name.includes('.tmp-')) await unlink(path).catch(() => undefined);
          continue;
        }
        const s = await stat(path).catch(() => undefined);
        if (s?.isFile()) found.push({ key: name, size: s.size, used: s.mtimeMs });
      }
    }
    found.sort((a, b) => a.used - b.used);
    for (const f of found) {
      this.entries.set(f.key, f.size);
      this.bytes += f.size;
    }
    this.loaded = true;
    this.trim();
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), key);
  }
}

/** A message id's file name: the same with or without its angle brackets. */
function keyOf(messageId: string): string {
  const bare = messageId.startsWith('<') && messageId.endsWith('>') ? messageId.slice(1, -1) : messageId;
  return createHash('sha256').update(bare).digest('hex');
}

/** Where the cache under `dir` keeps an article (tests damage or remove it). */
export function probeCacheFileOf(dir: string, messageId: string): string {
  const key = keyOf(messageId);
  return join(dir, key.slice(0, 2), key);
}

/** A cache file: the header (magic, version, the article's length and CRC-32), then the article. */
function encode(data: Uint8Array): Buffer {
  const file = Buffer.alloc(PROBE_FILE_HEADER + data.byteLength);
  file.writeUInt32BE(MAGIC, 0);
  file.writeUInt8(VERSION, 4);
  file.writeUInt32BE(data.byteLength, 8);
  file.writeUInt32BE(crc32(data), 12);
  file.set(data, PROBE_FILE_HEADER);
  return file;
}
