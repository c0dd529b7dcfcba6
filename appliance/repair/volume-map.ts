import { articleOffsetOf, type FileLayout, type LayoutSegment } from '../layout/index.js';
import type { VfsNode } from '../vfs/types.js';
import type { Par2File, Par2Set } from './par2-solver.js';
import type { KeptPar2File, PatchPiece } from './repair.port.js';

/**
 * A PAR2 set over archive volumes (docs/health.md "PAR2 repair"): the tree shows the archive's members, whose
 * layouts are extents of the volumes' articles, so a member and a volume share message-ids. The member's missing
 * articles name the volume bytes to rebuild; the rebuilt volume bytes are copied back into the member's ranges.
 */

/** The set's files the tree does not show, matched to the kept archive volumes: same name and size, else size. */
export function carriedBy(
  set: Par2Set,
  shown: ReadonlyMap<string, VfsNode>,
  volumes: readonly KeptPar2File[],
): Map<string, KeptPar2File> {
  const out = new Map<string, KeptPar2File>();
  const free = new Set(volumes);
  const open = set.files.filter((f) => !shown.has(f.fileId));
  for (const f of open) {
    const base = f.name.slice(f.name.lastIndexOf('/') + 1);
    const byName = [...free].find((v) => v.name === base && v.size === f.length);
    if (byName) {
      out.set(f.fileId, byName);
      free.delete(byName);
    }
  }
  for (const f of open) {
    if (out.has(f.fileId)) continue;
    const bySize = [...free].filter((v) => v.size === f.length);
    if (bySize.length === 1) {
      out.set(f.fileId, bySize[0]!);
      free.delete(bySize[0]!);
    }
  }
  return out;
}

/** True when the member's bytes come from articles of these volumes. */
export function sharesArticles(member: FileLayout, volumes: Iterable<KeptPar2File>): boolean {
  const ids = new Set(member.segments.map((s) => s.messageId));
  for (const v of volumes) if (v.layout.segments.some((s) => ids.has(s.messageId))) return true;
  return false;
}

/** Message-ids of the member's articles under its known bad byte ranges. */
export function articlesUnder(member: FileLayout, bad: readonly { start: number; end: number }[]): Set<string> {
  const out = new Set<string>();
  for (const r of bad) for (const s of member.segments) if (s.start < r.end && s.end > r.start) out.add(s.messageId);
  return out;
}

/** The volume's byte ranges held by these articles. */
export function volumeRanges(volume: FileLayout, articles: ReadonlySet<string>): { start: number; end: number }[] {
  return volume.segments.filter((s) => articles.has(s.messageId)).map((s) => ({ start: s.start, end: s.end }));
}

/** An archive member's bytes held by rebuilt volume slices: the ranges to patch, and where a strip's bytes go. */
export interface MemberTarget {
  /** Member byte ranges whose volume bytes all lie in rebuilt slices, merged. */
  ranges: { start: number; end: number }[];
  bytes: number;
  /** The member pieces in the strip [offset, offset + bytes.length) of rebuilt slice `index`. */
  pieces(index: number, offset: number, bytes: Uint8Array): PatchPiece[];
}

/**
 * Maps the rebuilt slices of the volumes to the member: each member segment is found in its volume by message-id
 * and offset in the article; a segment is patched when every volume slice under it is rebuilt.
 */
export function memberTarget(
  set: Par2Set,
  member: FileLayout,
  volumes: ReadonlyMap<string, KeptPar2File>,
  rebuilt: readonly number[],
): MemberTarget {
  const where = new Map<string, { file: Par2File; seg: LayoutSegment }>();
  for (const [id, v] of volumes) {
    const file = set.files.find((f) => f.fileId === id);
    if (file) for (const seg of v.layout.segments) where.set(seg.messageId, { file, seg });
  }
  const have = new Set(rebuilt);
  // per volume slice: the member segments it feeds, as [volume from, volume to) -> member start
  const feeds = new Map<number, { from: number; to: number; at: number; firstSlice: number }[]>();
  const ranges: { start: number; end: number }[] = [];
  let bytes = 0;
  for (const seg of member.segments) {
    const hit = where.get(seg.messageId);
    if (!hit) continue;
    const from = hit.seg.start + articleOffsetOf(seg) - articleOffsetOf(hit.seg);
    const to = from + seg.end - seg.start;
    const first = Math.floor(from / set.sliceSize);
    const last = Math.floor((to - 1) / set.sliceSize);
    let all = true;
    for (let s = first; s <= last && all; s++) all = have.has(hit.file.firstSlice + s);
    if (!all) continue;
    for (let s = first; s <= last; s++) {
      const list = feeds.get(hit.file.firstSlice + s) ?? [];
      list.push({ from, to, at: seg.start, firstSlice: hit.file.firstSlice });
      feeds.set(hit.file.firstSlice + s, list);
    }
    const prev = ranges.at(-1);
    if (prev && prev.end === seg.start) prev.end = seg.end;
    else ranges.push({ start: seg.start, end: seg.end });
    bytes += seg.end - seg.start;
  }
  return {
    ranges,
    bytes,
    pieces(index, offset, data) {
      const out: PatchPiece[] = [];
      for (const f of feeds.get(index) ?? []) {
        const base = (index - f.firstSlice) * set.sliceSize + offset; // volume position of data[0]
        const a = Math.max(base, f.from);
        const b = Math.min(base + data.length, f.to);
        if (a < b) out.push({ start: f.at + a - f.from, data: data.subarray(a - base, b - base) });
      }
      return out;
    },
  };
}
