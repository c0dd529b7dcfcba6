export interface ByteRange {
  start: number;
  /** Inclusive, as in Content-Range. */
  end: number;
}

const MAX_RANGES = 32;

/**
 * RFC 9110 §14.1.2 `Range: bytes=...` against a resource of `size` bytes.
 * - null: no usable Range header (absent, another unit, or malformed): serve the whole resource (200);
 * - []: syntactically valid but none satisfiable: 416;
 * - otherwise the satisfiable ranges, clamped. Overlapping or too many ranges are coalesced so a client cannot
 *   make us send the same bytes many times over.
 */
export function parseRange(header: string | undefined, size: number): ByteRange[] | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null;
  const out: ByteRange[] = [];
  for (const raw of (m[1] as string).split(',')) {
    const spec = raw.trim();
    if (!spec) continue;
    const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return null;
    if (r[1] === '') {
      const suffix = Number(r[2]);
      if (suffix === 0 || size === 0) continue;
      out.push({ start: Math.max(0, size - suffix), end: size - 1 });
    } else {
      const start = Number(r[1]);
      const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
      if (r[2] !== '' && Number(r[2]) < start) return null;
      if (start >= size) continue;
      out.push({ start, end });
    }
  }
  return coalesce(out);
}

function coalesce(ranges: ByteRange[]): ByteRange[] {
  if (ranges.length <= 1) return ranges;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [];
  for (const r of sorted) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  if (merged.length > MAX_RANGES) return [{ start: merged[0]!.start, end: merged.at(-1)!.end }];
  // Keep the client's order when nothing overlapped (RFC allows either; players expect theirs).
  return merged.length === ranges.length ? ranges : merged;
}
