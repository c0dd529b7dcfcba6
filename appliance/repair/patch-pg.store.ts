import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import { PG_LOCKS, type PgDb } from '../store/pg/index.js';
import { PgPatchBlobs } from './patch-pg-blobs.store.js';
import { PgPatchIndex } from './patch-pg-index.store.js';
import { pgPatchWriter } from './patch-pg-writer.js';
import { addPieces, coversSpan, mergePatch, movedPath, planBlob, spansOf } from './patch-ranges.js';
import type { FilePatches, PatchPiece, PatchStore, PatchWriter } from './repair.port.js';

export interface PgPatchStoreOptions {
  /** A pending blob nobody wrote to for this long is a crashed node's, swept at open (default 6 hours). */
  pendingGraceMs?: number;
  /** The backstop re-read of the whole index, for a notification lost some other way (default 5 minutes). */
  reloadMs?: number;
}

/**
 * The patch store on PostgreSQL (docs/health.md "PAR2 repair"), for several nodes on one database: the rebuilt
 * bytes in chunk rows (patch-pg-blobs.store.ts), so every node serves a repaired file, and the index
 * (`repair_patches`) in every node's memory (patch-pg-index.store.ts), so `has`/`covers` stay a map lookup.
 *
 * A patch is written under a pending blob; `commit` marks the blob committed and writes the index row in one
 * transaction (under `PG_LOCKS.patches`, merging with the file's older patches) that also notifies the other
 * nodes. A writer aborted, refused or killed leaves no index row: nothing is served before the commit. Its chunks
 * go at once (abort), or with the next open on any node once untouched past the grace period (a crashed node).
 */
export class PgPatchStore implements PatchStore {
  private readonly blobs: PgPatchBlobs;
  private readonly index: PgPatchIndex;
  private readonly backstop: NodeJS.Timeout;

  private constructor(
    private readonly db: PgDb,
    logger: Logger,
    reloadMs: number,
  ) {
    this.blobs = new PgPatchBlobs(db);
    this.index = new PgPatchIndex(db, logger);
    this.backstop = setInterval(() => void this.index.reload().catch(() => undefined), reloadMs);
    this.backstop.unref();
  }

  static async open(db: PgDb, logger: Logger, opts: PgPatchStoreOptions = {}): Promise<PgPatchStore> {
    const store = new PgPatchStore(db, logger, opts.reloadMs ?? 5 * 60_000);
    try {
      // Listening before the first read: a patch committed after the read is always heard (PgDb.listening).
      if (!(await db.listening())) logger.warn("patch notifications not up yet; other nodes' patches follow later");
      await store.index.reload();
      const swept = await store.blobs.sweep(opts.pendingGraceMs ?? 6 * 3_600_000);
      if (swept > 0) logger.info('swept patch blobs a stopped repair left uncommitted', { blobs: swept });
    } catch (err) {
      store.close();
      throw err;
    }
    return store;
  }

  has(layoutId: string): boolean {
    return this.index.get(layoutId) !== undefined;
  }

  covers(layoutId: string, start: number, end: number): boolean {
    return coversSpan(this.index.get(layoutId), start, end);
  }

  async read(layoutId: string, start: number, end: number): Promise<Uint8Array> {
    const out = Buffer.alloc(end - start);
    for (const s of spansOf(this.index.get(layoutId), layoutId, start, end))
      (await this.blobs.read(s.blob, s.offset, s.length)).copy(out, s.at - start);
    return out;
  }

  /** Bytes of a committed blob as stored (the copy from LMDB checks every range through this). */
  readBlob(blob: string, offset: number, length: number): Promise<Buffer> {
    return this.blobs.read(blob, offset, length);
  }

  usedBytes(): number {
    return this.index.usedBytes();
  }

  list(): FilePatches[] {
    return this.index.values();
  }

  add(layoutId: string, path: string, pieces: readonly PatchPiece[]): Promise<void> {
    return addPieces(this, layoutId, path, pieces);
  }

  async open(layoutId: string, path: string, wanted: readonly { start: number; end: number }[]): Promise<PatchWriter> {
    const blob = `${randomUUID()}.bin`;
    const { ranges, bytes } = planBlob(blob, wanted);
    await this.blobs.create(blob);
    return pgPatchWriter(path, ranges, {
      append: (pieces) => this.blobs.append(blob, pieces),
      abort: () => this.blobs.dropPending(blob),
      commit: async () => {
        const merged = await this.db.tx(
          async (tx) => {
            await this.blobs.commitIn(tx, blob);
            const next = mergePatch(await this.index.rowIn(tx, layoutId), layoutId, path, ranges, bytes, Date.now());
            await this.index.writeIn(tx, next);
            await this.index.notifyIn(tx, [layoutId]);
            return next;
          },
          { lock: PG_LOCKS.patches },
        );
        await this.index.applied([merged]);
      },
    });
  }

  async removePaths(paths: readonly string[]): Promise<number> {
    if (paths.length === 0) return 0;
    const gone = await this.db.tx(
      async (tx) => {
        const prefixes = paths.map((root) => (root.endsWith('/') ? root : root + '/'));
        const rows = await tx.query<{ layout_id: string; ranges: { blob: string }[] }>(
          `DELETE FROM repair_patches
           WHERE path = ANY($1::text[]) OR EXISTS (SELECT 1 FROM unnest($2::text[]) AS u (prefix) WHERE starts_with(path, prefix))
           RETURNING layout_id, ranges`,
          [paths, prefixes],
        );
        const ids = rows.rows.map((r) => r.layout_id);
        await this.blobs.dropIn(tx, [...new Set(rows.rows.flatMap((r) => r.ranges.map((x) => x.blob)))]);
        await this.index.notifyIn(tx, ids);
        return ids;
      },
      { lock: PG_LOCKS.patches },
    );
    await this.index.applied([], gone);
    return gone.length;
  }

  async movePath(from: string, to: string): Promise<void> {
    const moved = await this.db.tx(
      async (tx) => {
        const rows = await tx.query<{ layout_id: string; path: string }>(
          `SELECT layout_id, path FROM repair_patches WHERE path = $1 OR starts_with(path, $2) FOR UPDATE`,
          [from, from + '/'],
        );
        const out: FilePatches[] = [];
        for (const r of rows.rows) {
          const next = movedPath(r.path, from, to);
          if (next === null) continue;
          await tx.query('UPDATE repair_patches SET path = $2 WHERE layout_id = $1', [r.layout_id, next]);
          const p = await this.index.rowIn(tx, r.layout_id);
          if (p) out.push(p);
        }
        await this.index.notifyIn(
          tx,
          out.map((p) => p.layoutId),
        );
        return out;
      },
      { lock: PG_LOCKS.patches },
    );
    await this.index.applied(moved);
  }

  /** Stops listening for other nodes' changes (the database itself is the caller's to close). */
  close(): void {
    clearInterval(this.backstop);
    this.index.close();
  }
}
