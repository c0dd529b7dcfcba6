import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/index.js';
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
    const p = this.byLayout.get(layoutId);
    if (!p) return false;
    let at = start;
    for (const r of p.ranges) if (r.start <= at && r.end > at) at = r.end;
    return at >= end;
  }

  async read(layoutId: string, start: number, end: number): Promise<Uint8Array> {
    const p = this.byLayout.get(layoutId);
    const out = Buffer.alloc(end - start);
    let at = start;
    for (const r of p?.ranges ?? []) {
      if (at >= end) break;
      if (r.start > at || r.end <= at) continue;
      const to = Math.min(end, r.end);
      const fh = await open(join(this.dir, r.blob), 'r');
      try {
        const { bytesRead } = await fh.read(out, at - start, to - at, r.offset + at - r.start);
        if (bytesRead !== to - at) throw new Error(`patch blob ${r.blob} is short`);
      } finally {
        await fh.close();
      }
      at = to;
    }
    if (at < end) throw new Error(`no patch covers bytes ${at}-${end - 1} of layout ${layoutId}`);
    return out;
  }

  usedBytes(): number {
    return this.used;
  }

  list(): FilePatches[] {
    return [...this.byLayout.values()];
  }

  async add(layoutId: string, path: string, pieces: readonly PatchPiece[]): Promise<void> {
    if (pieces.length === 0) return;
    const w = await this.open(
      layoutId,
      path,
      pieces.map((p) => ({ start: p.start, end: p.start + p.data.length })),
    );
    try {
      for (const piece of pieces) await w.write(piece.start, piece.data);
    } catch (err) {
      await w.abort();
      throw err;
    }
    await w.commit();
  }

  async open(layoutId: string, path: string, wanted: readonly { start: number; end: number }[]): Promise<PatchWriter> {
    const blob = `${randomUUID()}.bin`;
    const tmp = join(this.dir, `${blob}.tmp`);
    const ranges: PatchRange[] = [];
    let bytes = 0;
    for (const r of wanted) {
      ranges.push({ start: r.start, end: r.end, blob, offset: bytes });
      bytes += r.end - r.start;
    }
    const fh = await open(tmp, 'wx');
    const written: [number, number][] = [];
    let closed = false;
    const close = async () => {
      if (!closed) await fh.close();
      closed = true;
    };
    return {
      write: async (start, data) => {
        const r = ranges.find((x) => x.start <= start && start + data.length <= x.end);
        if (!r) throw new RangeError(`bytes ${start}-${start + data.length - 1} are outside the patch's ranges`);
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
    const before = this.byLayout.get(layoutId);
    // Newer ranges first: where two repairs overlap, the later bytes are read (they are the same bytes anyway).
    const merged: FilePatches = {
      layoutId,
      path,
      ranges: [...ranges, ...(before?.ranges ?? [])].sort((a, b) => a.start - b.start),
      bytes: (before?.bytes ?? 0) + bytes,
      at: Date.now(),
    };
    await this.db.put(layoutId, merged);
    this.byLayout.set(layoutId, merged);
    this.used += bytes;
  }

  async removePaths(paths: readonly string[]): Promise<number> {
    const under = (p: string) =>
      paths.some((root) => p === root || p.startsWith(root.endsWith('/') ? root : root + '/'));
    const gone = [...this.byLayout.values()].filter((p) => under(p.path));
    for (const p of gone) await this.drop(p);
    return gone.length;
  }

  async movePath(from: string, to: string): Promise<void> {
    for (const p of [...this.byLayout.values()]) {
      const moved = p.path === from ? to : p.path.startsWith(from + '/') ? to + p.path.slice(from.length) : null;
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

/** The first part of `ranges` no write covered, or null when every byte was written. */
function firstGap(ranges: readonly PatchRange[], written: [number, number][]): { start: number; end: number } | null {
  const sorted = [...written].sort((a, b) => a[0] - b[0]);
  for (const r of ranges) {
    let at = r.start;
    for (const [a, b] of sorted) {
      if (a > at) break;
      if (b > at) at = b;
      if (at >= r.end) break;
    }
    if (at < r.end) return { start: at, end: r.end };
  }
  return null;
}
