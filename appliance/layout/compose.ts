import { findSegment } from './segment-index.js';
import {
  articleOffsetOf,
  articleSizeOf,
  type FileLayout,
  type LayoutExtent,
  type LayoutPost,
  type LayoutSegment,
} from './layout.types.js';

/**
 * One layout for a file whose bytes are the given layouts' bytes in order (split pieces `.001`, `.002`, ...;
 * slices of archive volumes). Posts are merged, so NZB export still names every posted file once.
 */
export function concatLayouts(layouts: readonly FileLayout[]): FileLayout {
  if (layouts.length === 1) return layouts[0]!;
  const segments: LayoutSegment[] = [];
  const posts: LayoutPost[] = [];
  const postIndex = new Map<LayoutPost, number>();
  let base = 0;
  for (const layout of layouts) {
    for (const s of layout.segments) {
      const post = s.post === undefined ? undefined : layout.posts?.[s.post];
      let p: number | undefined;
      if (post) {
        p = postIndex.get(post);
        if (p === undefined) {
          p = posts.push(post) - 1;
          postIndex.set(post, p);
        }
      }
      segments.push({ ...s, start: base + s.start, end: base + s.end, ...(p === undefined ? {} : { post: p }) });
    }
    base += layout.size;
  }
  const groups = layouts.find((l) => l.groups)?.groups;
  return { size: base, segments, ...(groups ? { groups } : {}), ...(posts.length ? { posts } : {}) };
}

/**
 * Bytes [offset, offset + length) of a file as a file of their own: the segments that hold them, cut to the range,
 * each keeping where its bytes lie in its article. A read of the slice fetches only the articles of the range.
 */
export function sliceLayout(layout: FileLayout, offset: number, length: number): FileLayout {
  const end = offset + length;
  if (!(offset >= 0 && length >= 0 && end <= layout.size)) {
    throw new RangeError(`slice [${offset}, ${end}) lies outside a ${layout.size}-byte file`);
  }
  const segments: LayoutSegment[] = [];
  if (length > 0) {
    for (let i = findSegment(layout, offset); i < layout.segments.length; i++) {
      const s = layout.segments[i]!;
      if (s.start >= end) break;
      const from = Math.max(s.start, offset);
      const to = Math.min(s.end, end);
      segments.push({
        ...s,
        start: from - offset,
        end: to - offset,
        articleOffset: articleOffsetOf(s) + (from - s.start),
        articleSize: articleSizeOf(s),
      });
    }
  }
  return { ...layout, size: length, segments };
}

/** A file made of byte ranges of other files (a file inside a multi-volume archive: one extent per volume). */
export function layoutFromExtents(extents: readonly LayoutExtent[]): FileLayout {
  return concatLayouts(extents.map((e) => sliceLayout(e.layout, e.offset, e.length)));
}
