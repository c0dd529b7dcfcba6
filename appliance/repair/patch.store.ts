import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/index.js';
import {
  addPieces,
  coversSpan,
  firstGap,
  isUnder,
  mergePatch,
  movedPath,
  planBlob,
  rangeOf,
  spansOf,
} from './patch-ranges.js';
import type { FilePatches, PatchPiece, PatchRange, PatchStore, PatchWriter } from './repair.port.js';

/**
 * The patch store on disk and LMDB (docs/health.md "PAR2 repair"). The rebuilt bytes of one repair of one file
 * are one blob under `<dataDir>/patches`: written to `<id>.tmp`, fsynced, renamed to `<id>.bin` and the directory
 * fsynced; only then is the file's index record (`repair-patches`, key: layout id) committed. A kill -9 at any
 * point leaves either no record (the blob is an orphan, deleted at the next open) or a record whose blob is whole.
 * Memory holds every record (a few ranges per repaired file) so the reader's question is a map lookup.
 */
export class DiskPatchStore implements PatchStore {
  private readonly db;
  private readonly byLayout = new Map<string, FilePatches>();
  private used = 0;

  constructor(
    store: Store,
    private readonly dir: string,
  ) {
    this.db = store.openDb<FilePatches, string>('repair-patches');
    mkdirSync(dir, { recursive: true });
    const referenced = new Set<string>();
    for (const { value } of this.db.getRange()) {
      this.byLayout.set(value.layoutId, value);
      this.used += value.bytes;
      for (const r of value.ranges) referenced.add(r.blob);
    }
    // Blobs no committed record names: a repair killed before its commit, or a temp file torn mid-write.
    for (const name of readdirSync(dir))
      if (!referenced.has(name)) rmSync(join(dir, name), { force: true, recursive: true });
  }

  has(layoutId: string): boolean {
    return this.byLayout.has(layoutId);
  }

  covers(layoutId: string, start: number, end: number): boolean {
    return coversSpan(this.byLayout.get(layoutId), start, end);
  }

  async read(layoutId: string, start: number, end: number): Promise<Uint8Array> {
    const out = Buffer.alloc(end - start);
    for (const s of spansOf(this.byLayout.get(layoutId), layoutId, start, end)) {
      const fh = await open(join(this.dir, s.blob), 'r');
      try {
        const { bytesRead } = await fh.read(out, s.at - start, s.length, s.offset);
        if (bytesRead !== s.length) throw new Error(`patch blob ${s.blob} is short`);
      } finally {
        await fh.close();
      }
    }
    return out;
  }

  usedBytes(): number {
    return this.used;
  }

  list(): FilePatches[] {
    return [...this.byLayout.values()];
  }

  add(layoutId: string, path: string, pieces: readonly PatchPiece[]): Promise<void> {
    return addPieces(this, layoutId, path, pieces);
  }

  async open(layoutId: string, path: string, wanted: readonly { start: number; end: number }[]): Promise<PatchWriter> {
    const blob = `${randomUUID()}.bin`;
    const tmp = join(this.dir, `${blob}.tmp`);
    const { ranges, bytes } = planBlob(blob, wanted);
    const fh = await open(tmp, 'wx');
    const written: [number, number][] = [];
    let closed = false;
    const close = async () => {
      if (!closed) await fh.close();
      closed = true;
    };
    return {
      write: async (start, data) => {
        const r = rangeOf(ranges, start, data.length);
        await fh.write(data, 0, data.length, r.offset + start - r.start);
        written.push([start, start + data.length]);
      },
      abort: async () => {
        await close();
        await rm(tmp, { force: true });
      },
      commit: async () => {
        // a range never written would read as the temp file's holes (zeros): such a patch is never committed
        const gap = firstGap(ranges, written);
        if (gap) {
          await close();
          await rm(tmp, { force: true });
          throw new Error(`patch of ${path} incomplete: bytes ${gap.start}-${gap.end - 1} were never written`);
        }
        try {
          await fh.sync();
        } finally {
          await close();
        }
        await rename(tmp, join(this.dir, blob));
        await this.syncDir();
        await this.index(layoutId, path, ranges, bytes);
      },
    };
  }

  private async index(layoutId: string, path: string, ranges: PatchRange[], bytes: number): Promise<void> {
    const merged = mergePatch(this.byLayout.get(layoutId), layoutId, path, ranges, bytes, Date.now());
    await this.db.put(layoutId, merged);
    this.byLayout.set(layoutId, merged);
    this.used += bytes;
  }

  async removePaths(paths: readonly string[]): Promise<number> {
    const gone = [...this.byLayout.values()].filter((p) => isUnder(p.path, paths));
    for (const p of gone) await this.drop(p);
    return gone.length;
  }

  async movePath(from: string, to: string): Promise<void> {
    for (const p of [...this.byLayout.values()]) {
      const moved = movedPath(p.path, from, to);
      if (moved === null) continue;
      const next = { ...p, path: moved };
      await this.db.put(p.layoutId, next);
      this.byLayout.set(p.layoutId, next);
    }
  }

  /** The index record goes first: a crash between the two leaves an orphan blob, never a record without bytes. */
  private async drop(p: FilePatches): Promise<void> {
    await this.db.remove(p.layoutId);
    this.byLayout.delete(p.layoutId);
    this.used -= p.bytes;
    for (const blob of new Set(p.ranges.map((r) => r.blob))) await rm(join(this.dir, blob), { force: true });
  }

  private async syncDir(): Promise<void> {
    const d = await open(this.dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
}
