import { decodeLayout, encodeLayout } from '../layout/index.js';
import type { PgDb } from '../store/pg/index.js';
import type { KeptPar2File, Par2FileStore } from './repair.port.js';

interface FileRow {
  idx: number;
  name: string;
  size: number;
  volume: boolean | null;
  layout: Buffer;
}

/**
 * The kept PAR2 files of each import on PostgreSQL (docs/health.md "PAR2 repair"): `repair_par2_sets` (one row
 * per queue item, so an empty list stays an empty list) and `repair_par2_files` (one row per file, in the order
 * given, its layout in the packed form the tree stores: appliance/layout/packed/). `put` replaces a queue item's
 * list in one transaction. Nothing here is cached: a repair reads it once.
 */
export class PgPar2FileStore implements Par2FileStore {
  constructor(private readonly db: PgDb) {}

  async put(queueItemId: number, files: readonly KeptPar2File[]): Promise<void> {
    const packed = files.map((f) => {
      const bytes = encodeLayout(f.layout);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
    await this.db.tx(async (tx) => {
      await tx.query('DELETE FROM repair_par2_sets WHERE queue_item_id = $1', [queueItemId]);
      await tx.query('INSERT INTO repair_par2_sets (queue_item_id) VALUES ($1)', [queueItemId]);
      for (const [i, f] of files.entries())
        await tx.query(
          'INSERT INTO repair_par2_files (queue_item_id, idx, name, size, volume, layout) VALUES ($1, $2, $3, $4, $5, $6)',
          [queueItemId, i, f.name, f.size, f.volume ?? null, packed[i]],
        );
    });
  }

  async get(queueItemId: number): Promise<KeptPar2File[] | undefined> {
    // one statement, one snapshot: a set with no files is one row of nulls
    const rows = await this.db.query<FileRow | { idx: null }>(
      `SELECT f.idx, f.name, f.size::float8 AS size, f.volume, f.layout
       FROM repair_par2_sets s LEFT JOIN repair_par2_files f USING (queue_item_id)
       WHERE s.queue_item_id = $1 ORDER BY f.idx`,
      [queueItemId],
    );
    if (rows.rowCount === 0) return undefined;
    const files = rows.rows.filter((r): r is FileRow => r.idx !== null);
    return files.map((r) => {
      const file: KeptPar2File = { name: r.name, size: r.size, layout: decodeLayout(r.layout) };
      if (r.volume !== null) file.volume = r.volume;
      return file;
    });
  }

  async remove(queueItemId: number): Promise<void> {
    await this.db.query('DELETE FROM repair_par2_sets WHERE queue_item_id = $1', [queueItemId]);
  }
}
