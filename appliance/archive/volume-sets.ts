import type { VolumeScan } from './archive.types.js';

/**
 * Which RAR volumes form one set when their names say nothing (random yEnc names, no PAR2: a season pack of
 * several episodes posted as one NZB), from what each volume's own headers say (docs/archives.md, "Sets under
 * obfuscated names"):
 * - a set starts at a volume numbered 0 (RAR5 main header, RAR 4 first-volume flag or end block), or, where no
 *   number is known, at a volume whose first file does not continue from a volume before;
 * - the volume after `a` is numbered one more than `a` (when both carry numbers), and continues what `a` left open:
 *   a member split at the end of `a` continues at the start of the next volume, by the same name and whole size;
 *   when nothing was left open, the next volume starts with a file of its own;
 * - a set ends at a volume whose end block says no volume follows (or that is not a multi-volume archive).
 * Among several volumes that fit, the one of the set's volume size comes first (every volume but the last of a
 * set has the size it was cut at), then the nearest after `a` in NZB order (sets are posted volume after volume).
 * Returns each set as volume indexes in set order; volumes no set claims come last, as one set ordered by their
 * numbers, whose assembly then fails naming what is missing.
 */
export function setsByHeaders(scans: readonly VolumeScan[], sizes: readonly number[]): number[][] {
  const n = scans.length;
  const free = new Set(scans.map((_, i) => i));
  const sets: number[][] = [];
  // volumes numbered 0 first: a volume without a number only may start a set
  const starts = scans.map((_, i) => i).filter((i) => startsSet(scans[i]!));
  starts.sort((x, y) => Number(scans[x]!.volumeNumber !== 0) - Number(scans[y]!.volumeNumber !== 0) || x - y);
  for (const start of starts) {
    if (!free.has(start)) continue;
    free.delete(start);
    const chain = [start];
    for (let cur = start; scans[cur]!.multiVolume && scans[cur]!.moreVolumes !== false;) {
      const a = scans[cur]!;
      const rank = (i: number) => (sizes[i] === sizes[start] ? 0 : n) + ((i - cur + n) % n);
      const fits = [...free].filter((i) => follows(a, scans[i]!)).sort((x, y) => rank(x) - rank(y));
      const next = fits[0];
      if (next === undefined) break;
      free.delete(next);
      chain.push(next);
      cur = next;
    }
    sets.push(chain);
  }
  if (free.size > 0) {
    const number = (i: number) => scans[i]!.volumeNumber ?? Number.MAX_SAFE_INTEGER;
    sets.push([...free].sort((x, y) => number(x) - number(y) || x - y));
  }
  return sets;
}

function startsSet(scan: VolumeScan): boolean {
  if (scan.volumeNumber !== null) return scan.volumeNumber === 0;
  return !scan.entries[0]?.splitBefore;
}

/** Whether `b` can be the volume right after `a` in one set. */
function follows(a: VolumeScan, b: VolumeScan): boolean {
  if (!b.multiVolume || b.volumeNumber === 0) return false;
  if (a.volumeNumber !== null && b.volumeNumber !== null && b.volumeNumber !== a.volumeNumber + 1) return false;
  const open = a.entries.at(-1);
  const first = b.entries[0];
  if (open?.splitAfter) {
    return (
      first !== undefined && first.splitBefore && first.name === open.name && first.unpackedSize === open.unpackedSize
    );
  }
  return !first?.splitBefore;
}
