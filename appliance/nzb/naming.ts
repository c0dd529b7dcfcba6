import { classifyName, extensionOf } from './classify.js';
import { parseSplitName } from '../archive/split.js';
import { NAME_CONTROL_CHARS } from '../text/names.js';

/**
 * Where a name came from, strongest first: PAR2 describes the real file; posters often obfuscate the rest.
 * `job`: nothing named the file, so it was named after its job (job-naming.ts).
 */
export type NameSource = 'par2' | 'subject' | 'yenc' | 'job' | 'fallback';

export interface NameCandidate {
  name: string;
  source: NameSource;
}

const SOURCE_RANK: Record<NameSource, number> = { par2: 3, subject: 2, yenc: 1, job: 0, fallback: 0 };

/** Drops any directory part and surrounding blanks or quotes: names end up as paths in the virtual tree. */
export function cleanFileName(raw: string): string {
  const last = raw.replace(/\\/g, '/').split('/').pop() ?? '';
  const name = last.replace(NAME_CONTROL_CHARS, '').replace(/^["'\s]+|["'\s]+$/g, '');
  return name === '.' || name === '..' ? '' : name;
}

const LOOKS_LIKE_FILE = /\.[A-Za-z0-9]{1,8}$/;

/**
 * The file name a subject line announces. Handles the common posting styles:
 * `"name.ext" yEnc (1/50)`, `[01/10] - "name.ext" yEnc (1/50)`, `[PRiVATE]-[name.ext]-[1/5] - "" yEnc`,
 * and unquoted `name.ext (1/50)` / `name.ext yEnc (1/50) 12345`.
 */
export function nameFromSubject(subject: string): string | null {
  for (const match of subject.matchAll(/"([^"]*)"/g)) {
    const name = cleanFileName(match[1]!);
    if (name !== '') return name;
  }
  for (const match of subject.matchAll(/\[([^[\]]+)\]/g)) {
    const inner = match[1]!.trim();
    if (LOOKS_LIKE_FILE.test(inner) && !/^\d+\/\d+$/.test(inner)) return cleanFileName(inner);
  }
  let rest = subject
    .replace(/\s+yEnc\b.*$/i, '')
    .replace(/^\s*\[\d+\/\d+\]\s*-?\s*/, '')
    .replace(/(\s*(\(\d+\/\d+\)|\[\d+\/\d+\]|\d+\s*bytes?))+\s*$/i, '')
    .trim();
  const dash = rest.lastIndexOf(' - ');
  if (dash !== -1 && LOOKS_LIKE_FILE.test(rest.slice(dash + 3))) rest = rest.slice(dash + 3);
  rest = cleanFileName(rest);
  return LOOKS_LIKE_FILE.test(rest) ? rest : null;
}

/**
 * True when a name is most likely a poster's random stand-in rather than the release's real name: a hash, a UUID,
 * or a long run of letters and digits that switches case and digit-ness like random text does. Real names have
 * words between separators. Our own reading of the same idea as SABnzbd's `is_probably_obfuscated`.
 */
export function isObfuscatedName(name: string): boolean {
  const split = parseSplitName(name);
  const withoutSplit = split ? split.base : name;
  if (/^\.[^.]*$/.test(withoutSplit)) return true; // only an extension: no name at all
  const ext = extensionOf(withoutSplit);
  let stem = ext ? withoutSplit.slice(0, -(ext.length + 1)) : withoutSplit;
  // a volume suffix says nothing about obfuscation of the stem before it
  stem = stem.replace(/\.(part\d+|vol\d+[+-]\d+)$/i, '');
  if (stem.length === 0) return true;
  if (/^[a-f0-9]{24,}$/i.test(stem)) return true;
  if (/^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/i.test(stem)) return true;
  const words = stem.split(/[\s._\-()[\]]+/).filter((w) => /[A-Za-z]{2,}/.test(w));
  if (words.length >= 2) return false;
  if (!/^[A-Za-z0-9]{16,}$/.test(stem)) return false;
  // real names that long always have separators somewhere
  if (stem.length >= 28) return true;
  return classSwitchRatio(stem) >= 0.45;
}

/** Share of neighbouring characters that change class (lower, upper, digit): ~0.67 for random base62, ~0.2 for words. */
function classSwitchRatio(text: string): number {
  const classOf = (c: string) => (c >= '0' && c <= '9' ? 0 : c === c.toLowerCase() ? 1 : 2);
  let switches = 0;
  for (let i = 1; i < text.length; i++) if (classOf(text[i]!) !== classOf(text[i - 1]!)) switches++;
  return switches / (text.length - 1);
}

/**
 * Scores a candidate: the source's rank, minus 1000 when obfuscated, plus 50 for a name whose type we know and care
 * about, plus 10 for an ordinary 2-4 character extension. The same shape of rule AltMount and NzbDav converged on.
 */
export function scoreName(candidate: NameCandidate): number {
  let score = SOURCE_RANK[candidate.source];
  if (isObfuscatedName(candidate.name)) score -= 1000;
  const base = parseSplitName(candidate.name)?.base ?? candidate.name;
  if (classifyName(base) !== 'other') score += 50;
  const ext = extensionOf(base);
  if (ext.length >= 2 && ext.length <= 4) score += 10;
  return score;
}

/** The best of the candidates (first wins a tie, so pass them strongest source first). */
export function chooseName(candidates: readonly NameCandidate[]): NameCandidate | null {
  let best: NameCandidate | null = null;
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    if (candidate.name === '') continue;
    const score = scoreName(candidate);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
