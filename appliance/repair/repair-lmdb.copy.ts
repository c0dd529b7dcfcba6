import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { CopyReport, CopyToLmdb, PgDb } from '../store/pg/index.js';
import { LmdbPar2FileStore } from './par2-files.store.js';
import { PgPar2FileStore } from './par2-files-pg.store.js';
import { DiskPatchStore } from './patch.store.js';
import { PgPatchBlobs } from './patch-pg-blobs.store.js';
import type { FilePatches, PatchRange } from './repair.port.js';

/** Chunks (up to 1 MiB each) read per query while writing a blob out. */
const CHUNKS = 16;

/**
 * The repair domain the other way (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy): each patch
 * record into `repair-patches` with the blobs it names written out of `repair_patch_chunks` as files in `patchDir`
 * (`<data dir>/patches`, where DiskPatchStore keeps them), and the kept PAR2 files into `repair-par2-files`. Then
 * every range of every patch is read through the LMDB patch store and compared byte for byte with PostgreSQL's, and
 * every kept PAR2 list compared.
 */
export function copyRepairToLmdb(patchDir: string): CopyToLmdb {
  return async (from, to, progress) => {
    const records = await patchRecords(from);
    await mkdir(patchDir, { recursive: true });
    let bytes = 0;
    for (const blob of new Set(records.flatMap((p) => p.ranges.map((r) => r.blob))))
      bytes += await writeBlob(from, patchDir, blob);
    const index = to.openDb<FilePatches, string>('repair-patches');
    to.transaction(() => records.forEach((p) => void index.put(p.layoutId, p)));
    const kept = new PgPar2FileStore(from);
    const sets = (await from.query<{ id: string }>('SELECT queue_item_id AS id FROM repair_par2_sets ORDER BY 1')).rows;
    const lmdbKept = new LmdbPar2FileStore(to);
    for (const { id } of sets) await lmdbKept.put(Number(id), (await kept.get(Number(id))) ?? []);
    progress(`repair: ${records.length} patched files, ${bytes} bytes of patches, ${sets.length} PAR2 sets copied`);

    const disk = new DiskPatchStore(to, patchDir);
    if (!isDeepStrictEqual(byLayout(disk.list()), byLayout(records))) throw new Error('the patch records differ');
    const blobs = new PgPatchBlobs(from);
    for (const p of records)
      for (const r of p.ranges) {
        const [copied, pg] = [
          await disk.read(p.layoutId, r.start, r.end),
          await blobs.read(r.blob, r.offset, r.end - r.start),
        ];
        if (!Buffer.from(copied).equals(pg))
          throw new Error(`patch bytes of ${p.path} (${r.start}-${r.end}) read back different from PostgreSQL`);
      }
    for (const { id } of sets)
      if (!isDeepStrictEqual(await lmdbKept.get(Number(id)), await kept.get(Number(id))))
        throw new Error(`kept PAR2 files of queue item ${id} differ`);
    return [{ scope: 'repair', records: records.length + sets.length, bytes } satisfies CopyReport];
  };
}

/** The committed patch records (`repair_patches`), as the LMDB index keeps them. */
async function patchRecords(from: PgDb): Promise<FilePatches[]> {
  const { rows } = await from.query<{
    layout_id: string;
    path: string;
    ranges: PatchRange[];
    bytes: number;
    at: number;
  }>('SELECT layout_id, path, ranges, bytes::float8 AS bytes, at::float8 AS at FROM repair_patches ORDER BY layout_id');
  return rows.map((r) => ({ layoutId: r.layout_id, path: r.path, ranges: r.ranges, bytes: r.bytes, at: r.at }));
}

/** One blob's chunks in order into `<dir>/<blob>`, fsynced; returns its size. */
async function writeBlob(from: PgDb, dir: string, blob: string): Promise<number> {
  const fh = await open(join(dir, blob), 'wx');
  let size = 0;
  try {
    for (let last = -1; ;) {
      const { rows } = await from.query<{ off: string; data: Buffer }>(
        'SELECT off, data FROM repair_patch_chunks WHERE blob = $1 AND off > $2 ORDER BY off LIMIT $3',
        [blob, last, CHUNKS],
      );
      if (rows.length === 0) break;
      for (const r of rows) {
        await fh.write(r.data, 0, r.data.length, Number(r.off));
        size = Math.max(size, Number(r.off) + r.data.length);
      }
      last = Number(rows.at(-1)!.off);
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return size;
}

function byLayout(all: readonly FilePatches[]): FilePatches[] {
  return [...all].sort((a, b) => (a.layoutId < b.layoutId ? -1 : a.layoutId > b.layoutId ? 1 : 0));
}
