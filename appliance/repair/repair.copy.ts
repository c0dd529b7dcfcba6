import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createLogger, type Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyReport, CopyToPg, PgDb, PgTx } from '../store/pg/index.js';
import { PgPar2FileStore } from './par2-files-pg.store.js';
import { PATCH_CHUNK_BYTES } from './patch-pg-blobs.store.js';
import { PgPatchStore } from './patch-pg.store.js';
import type { FilePatches, KeptPar2File } from './repair.port.js';

/** Bytes compared at a time when reading a copied blob back. */
const CHECK_BYTES = 8 << 20;

/**
 * The repair domain's part of moving an install (docs/deployment.md, "Moving from LMDB"): the patch index (LMDB
 * `repair-patches`) with the blobs it names, read from `patchDir` (`<data dir>/patches`, which the LMDB store does
 * not know, hence the closure), and the kept PAR2 files (`repair-par2-files`). Blobs no record names (orphans of
 * a killed repair) are left behind. Then every record is read back through the PostgreSQL stores and every byte
 * of every range compared with its blob on disk; the first difference throws.
 */
export function copyRepairToPg(patchDir: string, logger?: Logger): CopyToPg {
  return async (from, to, progress) => {
    const patches = from.openDb<FilePatches, string>('repair-patches');
    const par2 = from.openDb<KeptPar2File[], number>('repair-par2-files');
    let records = 0;
    let bytes = 0;
    for (const { value } of patches.getRange()) {
      bytes += await to.tx((tx) => copyPatch(tx, patchDir, value));
      records++;
    }
    progress(`repair: ${records} patched files, ${bytes} bytes of patches copied`);
    const kept = new PgPar2FileStore(to);
    for (const { key, value } of par2.getRange()) {
      await kept.put(key, value);
      records++;
    }
    await check(from, to, patchDir, logger ?? createLogger('migrate', 'warn'));
    progress(`repair: ${records} records checked`);
    return [{ scope: 'repair', records, bytes } satisfies CopyReport];
  };
}

async function copyPatch(to: PgTx, dir: string, p: FilePatches): Promise<number> {
  let bytes = 0;
  for (const blob of new Set(p.ranges.map((r) => r.blob))) {
    const fh = await open(join(dir, blob), 'r').catch((err: Error) => {
      throw new Error(`patch blob ${blob} of ${p.path} cannot be read from ${dir}: ${err.message}`);
    });
    try {
      await to.query('INSERT INTO repair_patch_blobs (blob, committed) VALUES ($1, true)', [blob]);
      const chunk = Buffer.alloc(PATCH_CHUNK_BYTES);
      for (let off = 0; ;) {
        const { bytesRead } = await fh.read(chunk, 0, chunk.length, off);
        if (bytesRead === 0) break;
        await to.query('INSERT INTO repair_patch_chunks (blob, off, data) VALUES ($1, $2, $3)', [
          blob,
          off,
          chunk.subarray(0, bytesRead),
        ]);
        off += bytesRead;
        bytes += bytesRead;
      }
    } finally {
      await fh.close();
    }
  }
  await to.query('INSERT INTO repair_patches (layout_id, path, ranges, bytes, at) VALUES ($1, $2, $3::json, $4, $5)', [
    p.layoutId,
    p.path,
    JSON.stringify(p.ranges),
    p.bytes,
    p.at,
  ]);
  return bytes;
}

async function check(from: Store, to: PgDb, dir: string, logger: Logger): Promise<void> {
  const store = await PgPatchStore.open(to, logger);
  try {
    const copies = new Map(store.list().map((p) => [p.layoutId, p]));
    for (const { key, value } of from.openDb<FilePatches, string>('repair-patches').getRange()) {
      const copied = copies.get(key);
      if (!isDeepStrictEqual(copied, value))
        throw new Error(`patch record of ${value.path} (${key}) differs in PostgreSQL`);
      for (const r of value.ranges) await sameBytes(store, dir, r.blob, r.offset, r.end - r.start, value.path);
    }
  } finally {
    store.close();
  }
  const kept = new PgPar2FileStore(to);
  for (const { key, value } of from.openDb<KeptPar2File[], number>('repair-par2-files').getRange())
    if (!isDeepStrictEqual(await kept.get(key), value))
      throw new Error(`kept PAR2 files of queue item ${key} differ in PostgreSQL`);
}

async function sameBytes(store: PgPatchStore, dir: string, blob: string, offset: number, length: number, path: string) {
  const fh = await open(join(dir, blob), 'r');
  try {
    for (let at = 0; at < length; at += CHECK_BYTES) {
      const n = Math.min(CHECK_BYTES, length - at);
      const disk = Buffer.alloc(n);
      const { bytesRead } = await fh.read(disk, 0, n, offset + at);
      const copied = await store.readBlob(blob, offset + at, n);
      if (bytesRead !== n || !disk.equals(copied))
        throw new Error(
          `patch bytes of ${path} differ in PostgreSQL (blob ${blob}, bytes ${offset + at}-${offset + at + n - 1})`,
        );
    }
  } finally {
    await fh.close();
  }
}
