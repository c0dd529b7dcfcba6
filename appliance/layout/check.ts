import { articleOffsetOf, articleSizeOf, type FileLayout } from './layout.types.js';

/**
 * Why a layout cannot back a file of `size` bytes, or null when it can: the segments must tile [0, size) in order
 * and each must lie inside its article. Anything else would let a read return wrong bytes.
 */
export function layoutProblem(layout: FileLayout, size: number): string | null {
  if (layout.cipher) {
    const padded = Math.ceil(size / 16) * 16;
    if (layout.cipher.plainSize !== size || layout.size !== padded)
      return `the encrypted layout holds ${layout.size} bytes for ${layout.cipher.plainSize}, the file is ${size}`;
  } else if (layout.size !== size) return `the layout is of ${layout.size} bytes, the file of ${size}`;
  size = layout.size;
  let pos = 0;
  for (const s of layout.segments) {
    if (s.start !== pos || !(s.end > s.start) || !s.messageId) return `a gap or overlap at byte ${pos}`;
    const offset = articleOffsetOf(s);
    if (!(offset >= 0 && offset + (s.end - s.start) <= articleSizeOf(s))) {
      return `bytes ${s.start}-${s.end} do not fit in article <${s.messageId}>`;
    }
    pos = s.end;
  }
  return pos === size ? null : `the segments cover ${pos} bytes, the file is ${size}`;
}
