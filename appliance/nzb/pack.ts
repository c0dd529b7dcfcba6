import { NzbSegments, type SegmentStore } from './segments.js';
import type { NzbDocument, NzbFile, NzbMeta } from './types.js';

/** A `<file>` without its segments: they are the window `[first, first + length)` of the document's store. */
export type FileHead = Omit<NzbFile, 'segments'> & { first: number; length: number };

/**
 * A parsed NZB as plain data a worker can post: small heads (structured clone), and every segment in one
 * `SegmentStore` whose buffers are moved, not cloned (`storeBuffers`). `unpackNzb` makes the `NzbDocument`;
 * nothing is copied or expanded per segment on either side (docs/nzb.md "Packed segments").
 */
export interface PackedNzb {
  meta: NzbMeta;
  warnings: string[];
  files: FileHead[];
  store: SegmentStore;
}

/** The document a packed parse describes; its files' segments read the store in place. */
export function unpackNzb(packed: PackedNzb): NzbDocument {
  const files = packed.files.map(({ first, length, ...head }): NzbFile => ({
    ...head,
    segments: new NzbSegments(packed.store, first, length),
  }));
  return { meta: packed.meta, warnings: packed.warnings, files };
}

/** The buffers to move with a packed document (distinct: a transfer list may name each one once). */
export function storeBuffers(packed: PackedNzb): ArrayBuffer[] {
  const { numbers, bytes, idEnds, ids, domainOf } = packed.store;
  return [...new Set([numbers.buffer, bytes.buffer, idEnds.buffer, ids.buffer, domainOf.buffer])] as ArrayBuffer[];
}
