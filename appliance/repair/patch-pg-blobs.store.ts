import type { PgDb, PgTx } from '../store/pg/index.js';

/** The most a chunk row holds: a blob's bytes are stored in rows of at most this many bytes. */
export const PATCH_CHUNK_BYTES = 1 << 20;

/** Bytes of chunk data a node keeps from its recent reads (a reader reads a patched file article by article). */
const CACHE_BYTES = 16 << 20;
/** Blobs whose chunk list (offsets and lengths, a few numbers per MiB) a node keeps. */
const INDEX_BLOBS = 256;

/** A piece of a blob at blob offset `off`. */
export interface BlobPiece {
  off: number;
  data: Uint8Array;
}

interface ChunkRef {
  n: number;
  off: number;
  len: number;
}

/**
 * The patch blobs on PostgreSQL (tables in repair-pg.migrations.ts): written as chunk rows under a pending blob
 * row, read back by blob offset. A committed blob never changes (a new repair writes a new blob), so what a node
 * read is kept, bounded: the chunk lists of the last blobs read and the bytes of the last chunks.
 */
export class PgPatchBlobs {
  private readonly index = new Map<string, ChunkRef[]>();
  private readonly bytes = new Map<string, Buffer>();
  private readonly fetching = new Map<string, Promise<Map<number, Buffer>>>();
  private cached = 0;

  constructor(private readonly db: PgDb) {}

  /** A new pending blob (swept by `sweep` once untouched past its grace unless its patch commits). */
  async create(blob: string): Promise<void> {
    await this.db.query('INSERT INTO repair_patch_blobs (blob) VALUES ($1)', [blob]);
  }

  /** Appends pieces to a pending blob, each split into chunk rows; fails when the blob is no longer pending. */
  async append(blob: string, pieces: readonly BlobPiece[]): Promise<void> {
    await this.db.tx(async (tx) => {
      const live = await tx.query(
        'UPDATE repair_patch_blobs SET touched_at = now() WHERE blob = $1 AND NOT committed',
        [blob],
      );
      if (live.rowCount !== 1) throw new Error(`the pending patch blob ${blob} is gone (swept or aborted)`);
      for (const p of pieces)
        for (let at = 0; at < p.data.length; at += PATCH_CHUNK_BYTES) {
          const data = p.data.subarray(at, Math.min(p.data.length, at + PATCH_CHUNK_BYTES));
          await tx.query('INSERT INTO repair_patch_chunks (blob, off, data) VALUES ($1, $2, $3)', [
            blob,
            p.off + at,
            Buffer.from(data.buffer, data.byteOffset, data.byteLength),
          ]);
        }
    });
  }

  /** Marks a pending blob committed inside the caller's transaction; throws when it is no longer pending. */
  async commitIn(tx: PgTx, blob: string): Promise<void> {
    const live = await tx.query(
      'UPDATE repair_patch_blobs SET committed = true, touched_at = now() WHERE blob = $1 AND NOT committed',
      [blob],
    );
    if (live.rowCount !== 1) throw new Error(`the pending patch blob ${blob} is gone (swept or aborted)`);
  }

  /** Deletes a pending blob and its chunks (a committed one is left alone). */
  async dropPending(blob: string): Promise<void> {
    await this.db.query('DELETE FROM repair_patch_blobs WHERE blob = $1 AND NOT committed', [blob]);
  }

  /** Deletes blobs and their chunks inside the caller's transaction. */
  async dropIn(tx: PgTx, blobs: readonly string[]): Promise<void> {
    if (blobs.length === 0) return;
    await tx.query('DELETE FROM repair_patch_blobs WHERE blob = ANY($1::text[])', [blobs]);
    for (const blob of blobs) this.forget(blob);
  }

  /** Deletes pending blobs nobody wrote to for `graceMs` (their writer's node died); answers how many. */
  async sweep(graceMs: number): Promise<number> {
    const gone = await this.db.query(
      `DELETE FROM repair_patch_blobs WHERE NOT committed AND touched_at < now() - $1 * interval '1 millisecond'`,
      [graceMs],
    );
    return gone.rowCount ?? 0;
  }

  /** `length` bytes of a committed blob from `offset`; throws when its chunks do not hold them all. */
  async read(blob: string, offset: number, length: number): Promise<Buffer> {
    const end = offset + length;
    const chunks = (await this.chunksOf(blob)).filter((c) => c.off < end && c.off + c.len > offset);
    let at = offset;
    for (const c of [...chunks].sort((a, b) => a.off - b.off))
      if (c.off <= at && c.off + c.len > at) at = c.off + c.len;
    if (at < end) throw new Error(`patch blob ${blob} is short: no bytes at ${at}`);
    const got = new Map<number, Buffer>();
    for (const c of chunks) {
      const data = this.bytes.get(key(blob, c.n));
      if (data) {
        got.set(c.n, data);
        this.remember(key(blob, c.n), data); // most recently used
      }
    }
    // a chunk another read is fetching is awaited, not fetched twice (a player's read-ahead asks for neighbours)
    const waits = chunks.filter((c) => !got.has(c.n) && this.fetching.has(key(blob, c.n)));
    const missing = chunks.filter((c) => !got.has(c.n) && !this.fetching.has(key(blob, c.n)));
    if (missing.length > 0) {
      const fetch = this.fetch(blob, missing);
      for (const c of missing) this.fetching.set(key(blob, c.n), fetch);
      try {
        for (const [n, data] of await fetch) got.set(n, data);
      } finally {
        for (const c of missing) this.fetching.delete(key(blob, c.n));
      }
    }
    for (const c of waits) {
      const data = (await this.fetching.get(key(blob, c.n))?.catch(() => undefined))?.get(c.n);
      if (data) got.set(c.n, data);
      else for (const [n, d] of await this.fetch(blob, [c])) got.set(n, d);
    }
    const out = Buffer.alloc(length);
    for (const c of chunks) {
      // in write order, so where two chunks overlap the later one's bytes are the ones left
      const data = got.get(c.n);
      if (!data) throw new Error(`patch blob ${blob} lost its chunk ${c.n} while being read`);
      const from = Math.max(offset, c.off);
      const to = Math.min(end, c.off + c.len);
      data.copy(out, from - offset, from - c.off, to - c.off);
    }
    return out;
  }

  private async fetch(blob: string, chunks: readonly ChunkRef[]): Promise<Map<number, Buffer>> {
    const rows = await this.db.query<{ n: number; data: Buffer }>(
      'SELECT n::float8 AS n, data FROM repair_patch_chunks WHERE blob = $1 AND n = ANY($2::bigint[])',
      [blob, chunks.map((c) => c.n)],
    );
    for (const r of rows.rows) this.remember(key(blob, r.n), r.data);
    return new Map(rows.rows.map((r) => [r.n, r.data]));
  }

  /** The chunk list of a blob in write order (kept: a committed blob's chunks never change). */
  private async chunksOf(blob: string): Promise<ChunkRef[]> {
    const known = this.index.get(blob);
    if (known) {
      this.index.delete(blob);
      this.index.set(blob, known);
      return known;
    }
    const rows = await this.db.query<ChunkRef>(
      `SELECT n::float8 AS n, off::float8 AS off, length(data) AS len FROM repair_patch_chunks
       WHERE blob = $1 ORDER BY n`,
      [blob],
    );
    this.index.set(blob, rows.rows);
    if (this.index.size > INDEX_BLOBS) this.index.delete(this.index.keys().next().value as string);
    return rows.rows;
  }

  private remember(k: string, data: Buffer): void {
    const before = this.bytes.get(k);
    if (before) {
      this.bytes.delete(k);
      this.cached -= before.length;
    }
    if (data.length > CACHE_BYTES) return;
    this.bytes.set(k, data);
    this.cached += data.length;
    for (const [old, b] of this.bytes) {
      if (this.cached <= CACHE_BYTES) break;
      this.bytes.delete(old);
      this.cached -= b.length;
    }
  }

  private forget(blob: string): void {
    this.index.delete(blob);
    for (const [k, b] of this.bytes)
      if (k.startsWith(blob + '#')) {
        this.bytes.delete(k);
        this.cached -= b.length;
      }
  }
}

function key(blob: string, n: number): string {
  return `${blob}#${n}`;
}
