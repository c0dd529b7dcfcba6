/**
 * Volume names of multi-volume archives, for grouping volumes into sets and ordering them when the headers do
 * not (RAR 4 volumes carry no number in their first header):
 * - `name.part1.rar`, `name.part01.rar`, ... (RAR 3+ "new" naming, RAR 5's only one): index = N - 1;
 * - `name.rar`, `name.r00` ... `name.r99`, `name.s00` ... (old naming): `.rar` is 0, `.r00` is 1, `.s00` is 101;
 * - `name.7z.001`, ... are byte splits, joined before this (archive/split.ts).
 */
export interface VolumeName {
  /** The set's name, lower-cased for grouping (`movie` for `Movie.part01.rar`). */
  setKey: string;
  /** What to call the set in messages. */
  base: string;
  index: number;
  scheme: 'part' | 'old';
}

const PART = /^(.*)\.part(\d{1,4})\.rar$/i;
const OLD_FIRST = /^(.*)\.rar$/i;
const OLD_NEXT = /^(.*)\.([r-z])(\d{2})$/i;

export function parseVolumeName(name: string): VolumeName | null {
  const part = PART.exec(name);
  if (part) return { setKey: part[1]!.toLowerCase(), base: part[1]!, index: Number(part[2]) - 1, scheme: 'part' };
  const first = OLD_FIRST.exec(name);
  if (first) return { setKey: first[1]!.toLowerCase(), base: first[1]!, index: 0, scheme: 'old' };
  const next = OLD_NEXT.exec(name);
  if (next) {
    const letter = next[2]!.toLowerCase().charCodeAt(0) - 'r'.charCodeAt(0);
    return { setKey: next[1]!.toLowerCase(), base: next[1]!, index: 1 + letter * 100 + Number(next[3]), scheme: 'old' };
  }
  return null;
}
