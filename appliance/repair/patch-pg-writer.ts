import type { BlobPiece } from './patch-pg-blobs.store.js';
import { firstGap, rangeOf } from './patch-ranges.js';
import type { PatchRange, PatchWriter } from './repair.port.js';

/** Bytes a writer holds before it sends them to the database as chunk rows. */
const FLUSH_BYTES = 4 << 20;

/** Where a writer's bytes go: `append` adds pieces to its pending blob; `commit` makes the patch visible at once. */
export interface PendingBlob {
  append(pieces: readonly BlobPiece[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A patch being written to the database (patch-pg.store.ts): writes are copied (the solve reuses its strip
 * buffers), held up to 4 MiB, then sent as chunk rows of the pending blob, adjoining writes joined into one row.
 * `commit` refuses a patch with a range never written, as the disk store does: its holes would read as zeros.
 */
export function pgPatchWriter(path: string, ranges: readonly PatchRange[], blob: PendingBlob): PatchWriter {
  let held: BlobPiece[] = [];
  let heldBytes = 0;
  const written: [number, number][] = [];
  let state: 'open' | 'done' = 'open';
  let sending: Promise<void> = Promise.resolve();

  const send = (): Promise<void> => {
    const pieces = joined(held);
    held = [];
    heldBytes = 0;
    // one send after another: chunk rows keep the order of the writes
    sending = sending.then(() => (pieces.length > 0 ? blob.append(pieces) : undefined));
    return sending;
  };
  const isOpen = () => {
    if (state !== 'open') throw new Error(`the patch writer of ${path} is closed`);
  };

  return {
    async write(start, data) {
      isOpen();
      const r = rangeOf(ranges, start, data.length);
      if (data.length === 0) return;
      held.push({ off: r.offset + start - r.start, data: new Uint8Array(data) });
      heldBytes += data.length;
      written.push([start, start + data.length]);
      if (heldBytes >= FLUSH_BYTES) await send();
    },
    async abort() {
      if (state !== 'open') return;
      state = 'done';
      held = [];
      await sending.catch(() => undefined);
      await blob.abort();
    },
    async commit() {
      isOpen();
      state = 'done';
      const gap = firstGap(ranges, written);
      try {
        if (gap) throw new Error(`patch of ${path} incomplete: bytes ${gap.start}-${gap.end - 1} were never written`);
        await send();
        await blob.commit();
      } catch (err) {
        await sending.catch(() => undefined);
        await blob.abort().catch(() => undefined);
        throw err;
      }
    },
  };
}

/**
 * The held writes as few pieces as can be: runs of adjoining or overlapping writes become one piece, the bytes of
 * a later write laid over an earlier one's where they overlap (as a file written in that order would hold).
 */
export function joined(writes: readonly BlobPiece[]): BlobPiece[] {
  const spans = [...writes].map((w) => [w.off, w.off + w.data.length] as [number, number]).sort((a, b) => a[0] - b[0]);
  const runs: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = runs[runs.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else runs.push([a, b]);
  }
  const out = runs.map(([a, b]) => ({ off: a, data: new Uint8Array(b - a) }));
  for (const w of writes) {
    const run = out.find((r) => r.off <= w.off && w.off + w.data.length <= r.off + r.data.length)!;
    run.data.set(w.data, w.off - run.off);
  }
  return out;
}
