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

/**
 * The member's byte ranges whose volume bytes were all rebuilt, with those bytes: each member segment is found in
 * the volume by its message-id and offset in the article.
 */
export function memberPieces(
  set: Par2Set,
  member: FileLayout,
  volumes: ReadonlyMap<string, KeptPar2File>,
  rebuilt: ReadonlyMap<number, Buffer>,
): PatchPiece[] {
  const where = new Map<string, { file: Par2File; seg: LayoutSegment }>();
  for (const [id, v] of volumes) {
    const file = set.files.find((f) => f.fileId === id);
    if (file) for (const seg of v.layout.segments) where.set(seg.messageId, { file, seg });
  }
  const pieces: PatchPiece[] = [];
  for (const seg of member.segments) {
    const at = where.get(seg.messageId);
    if (!at) continue;
    const from = at.seg.start + articleOffsetOf(seg) - articleOffsetOf(at.seg);
    const data = volumeBytes(set, at.file, from, from + seg.end - seg.start, rebuilt);
    if (!data) continue;
    const last = pieces.at(-1);
    if (last && last.start + last.data.length === seg.start)
      pieces[pieces.length - 1] = { start: last.start, data: Buffer.concat([last.data, data]) };
    else pieces.push({ start: seg.start, data });
  }
  return pieces;
}

/** Bytes [start, end) of a volume when every slice under them was rebuilt, else null. */
function volumeBytes(
  set: Par2Set,
  file: Par2File,
  start: number,
  end: number,
  rebuilt: ReadonlyMap<number, Buffer>,
): Buffer | null {
  const out = Buffer.alloc(end - start);
  for (let at = start; at < end;) {
    const slice = Math.floor(at / set.sliceSize);
    const bytes = rebuilt.get(file.firstSlice + slice);
    if (!bytes) return null;
    const sliceStart = slice * set.sliceSize;
    const to = Math.min(end, sliceStart + set.sliceSize);
    bytes.copy(out, at - start, at - sliceStart, to - sliceStart);
    at = to;
  }
  return out;
}
