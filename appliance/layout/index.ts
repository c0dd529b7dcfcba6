/** The one article-map model of a virtual file (see layout.types.ts and docs/architecture.md). Pure, no I/O. */
export type {
  DeferredLayout,
  FileLayout,
  LayoutCipher,
  LayoutExtent,
  LayoutPost,
  LayoutSegment,
} from './layout.types.js';
export { articleOffsetOf, articleSizeOf, resolveLayout } from './layout.types.js';
export { findIn, findSegment, segmentsForRange } from './segment-index.js';
export { concatLayouts, layoutFromExtents, sliceLayout } from './compose.js';
export { layoutProblem } from './check.js';
export { idsFingerprint, layoutFingerprint } from './fingerprint.js';
export { decodeLayout, encodeLayout, isPackedLayout, LayoutCodecError } from './packed/index.js';
