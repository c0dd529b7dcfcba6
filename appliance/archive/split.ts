/**
 * Byte-split files (`movie.mkv.001`, `.002`, ...; also `archive.7z.001`) are one file cut into pieces; joined in
 * order they are the original. RAR's own `.r00`/`.partNN.rar` volumes are not byte splits and are not matched.
 */
export interface SplitName {
  /** The joined file's name (`movie.mkv`). */
  base: string;
  /** The piece number as written (`001` -> 1; some tools start at `000`). */
  index: number;
}

const SPLIT_SUFFIX = /^(.+)\.(\d{3,4})$/;

export function parseSplitName(name: string): SplitName | null {
  const match = SPLIT_SUFFIX.exec(name);
  if (!match) return null;
  return { base: match[1]!, index: Number(match[2]) };
}

/**
 * Checks that the pieces of one split file form a run without holes, starting at 0 or 1.
 * Returns the missing piece numbers (empty when the set is complete).
 */
export function missingSplitPieces(indexes: readonly number[]): number[] {
  const sorted = [...indexes].sort((a, b) => a - b);
  const missing: number[] = [];
  let expected = sorted[0] === 0 ? 0 : 1;
  for (const index of sorted) {
    for (; expected < index; expected++) missing.push(expected);
    expected = index + 1;
  }
  return missing;
}
