import { classifyName, isMainKind } from './classify.js';
import type { FileKind } from './classify.js';
import { chooseName, cleanFileName, isObfuscatedName, nameFromSubject } from './naming.js';
import type { NameCandidate, NameSource } from './naming.js';
import { matchPar2Description } from './par2.js';
import type { Par2FileDescription } from './par2.js';
import { missingSplitPieces, parseSplitName } from '../archive/split.js';
import type { NzbDocument, YencFacts } from './types.js';

/** What the importer learned about one NZB file from the network (all optional: grouping works from the NZB alone). */
export interface FileEvidence {
  /** yEnc facts of the file's first article. */
  yenc?: YencFacts;
  /** The first min(16 KiB, size) decoded bytes, for PAR2 matching. */
  head?: Uint8Array;
}

/** One file of the job as the user will see it: a posted file, or several split pieces joined in order. */
export interface VirtualFile {
  name: string;
  kind: FileKind;
  /** Indexes into `NzbDocument.files`, in byte order (one entry unless joined from split pieces). */
  parts: number[];
  nameSource: NameSource;
  /** True when even the chosen name still looks obfuscated. */
  obfuscated: boolean;
  /** The PAR2 description matched to a single-part file (its length and MD5 are authoritative). */
  par2?: Par2FileDescription;
}

export interface GroupedNzb {
  /** Media, archives and unknown files: these become virtual files. */
  files: VirtualFile[];
  /** PAR2 files, kept as metadata (repair data, and the source of real names). */
  par2: VirtualFile[];
  /** NFO, SFV, images and other small companions, kept as metadata. */
  extras: VirtualFile[];
  warnings: string[];
}

interface NamedFile {
  index: number;
  name: string;
  source: NameSource;
  par2?: Par2FileDescription;
}

/**
 * Names every NZB file (PAR2 > subject > yEnc header, obfuscated names losing), classifies it, joins split pieces
 * and sorts the result into main files and put-aside metadata. `evidence[i]` belongs to `doc.files[i]`.
 */
export function groupNzb(
  doc: NzbDocument,
  evidence: readonly (FileEvidence | undefined)[] = [],
  par2Files: readonly Par2FileDescription[] = [],
): GroupedNzb {
  const named = doc.files.map((file, index) => nameOne(index, file.subject, evidence[index], par2Files));
  const warnings: string[] = [];
  const virtual = joinSplitPieces(named, warnings);
  dedupeNames(virtual);
  const grouped: GroupedNzb = { files: [], par2: [], extras: [], warnings };
  for (const file of virtual) {
    if (file.kind === 'par2') grouped.par2.push(file);
    else if (isMainKind(file.kind)) grouped.files.push(file);
    else grouped.extras.push(file);
  }
  return grouped;
}

function nameOne(
  index: number,
  subject: string,
  evidence: FileEvidence | undefined,
  par2Files: readonly Par2FileDescription[],
): NamedFile {
  const candidates: NameCandidate[] = [];
  const par2 =
    evidence?.head && par2Files.length > 0
      ? (matchPar2Description(par2Files, evidence.head, evidence.yenc?.size) ?? undefined)
      : undefined;
  if (par2) candidates.push({ name: cleanFileName(par2.name), source: 'par2' });
  const fromSubject = nameFromSubject(subject);
  if (fromSubject) candidates.push({ name: fromSubject, source: 'subject' });
  if (evidence?.yenc?.name) candidates.push({ name: cleanFileName(evidence.yenc.name), source: 'yenc' });
  const best = chooseName(candidates) ?? { name: `file-${index + 1}.bin`, source: 'fallback' as const };
  return { index, name: best.name, source: best.source, par2: best.source === 'par2' ? par2 : undefined };
}

/** Groups `x.001`, `x.002`, ... by their joined name; a set with holes stays as separate pieces, with a warning. */
function joinSplitPieces(named: NamedFile[], warnings: string[]): VirtualFile[] {
  const sets = new Map<string, { base: string; pieces: { index: number; file: NamedFile }[] }>();
  const out: VirtualFile[] = [];
  for (const file of named) {
    const split = file.source === 'fallback' ? null : parseSplitName(file.name);
    if (!split) {
      out.push(toVirtual(file.name, [file]));
      continue;
    }
    const key = split.base.toLowerCase();
    const set = sets.get(key) ?? { base: split.base, pieces: [] };
    set.pieces.push({ index: split.index, file });
    sets.set(key, set);
  }
  for (const { base, pieces } of sets.values()) {
    pieces.sort((a, b) => a.index - b.index);
    const duplicate = pieces.some((p, i) => i > 0 && p.index === pieces[i - 1]!.index);
    const missing = missingSplitPieces(pieces.map((p) => p.index));
    if (duplicate || missing.length > 0) {
      const why = duplicate ? 'has a piece posted twice' : `is missing piece(s) ${missing.slice(0, 20).join(', ')}`;
      warnings.push(`split file ${base} ${why}; its pieces are kept as separate files`);
      for (const piece of pieces) out.push(toVirtual(piece.file.name, [piece.file]));
    } else {
      out.push(
        toVirtual(
          base,
          pieces.map((p) => p.file),
        ),
      );
    }
  }
  return out;
}

function toVirtual(name: string, files: NamedFile[]): VirtualFile {
  const first = files[0]!;
  return {
    name,
    kind: classifyName(name),
    parts: files.map((f) => f.index),
    nameSource: first.source,
    obfuscated: isObfuscatedName(name),
    par2: files.length === 1 ? first.par2 : undefined,
  };
}

/** Two posted files resolving to one name (reposts, fallbacks) get ` (2)`, ` (3)` before the extension. */
export function dedupeNames(files: VirtualFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    let candidate = file.name;
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) {
      const dot = file.name.lastIndexOf('.');
      candidate = dot > 0 ? `${file.name.slice(0, dot)} (${n})${file.name.slice(dot)}` : `${file.name} (${n})`;
    }
    seen.add(candidate.toLowerCase());
    file.name = candidate;
  }
}

/**
 * Which NZB files the importer should read as PAR2 (smallest first: the index file without recovery slices is
 * enough for names), and whether it needs to at all: only when some file's best name still looks obfuscated.
 */
export function par2Plan(
  doc: NzbDocument,
  evidence: readonly (FileEvidence | undefined)[] = [],
): {
  needed: boolean;
  par2FileIndexes: number[];
} {
  const named = doc.files.map((file, index) => nameOne(index, file.subject, evidence[index], []));
  const par2FileIndexes = named
    .filter((f) => /\.par2$/i.test(f.name))
    .map((f) => f.index)
    .sort((a, b) => encodedSize(doc, a) - encodedSize(doc, b));
  const needed = named.some((f) => !/\.par2$/i.test(f.name) && (f.source === 'fallback' || isObfuscatedName(f.name)));
  return { needed: needed && par2FileIndexes.length > 0, par2FileIndexes };
}

const encodedSize = (doc: NzbDocument, index: number) => doc.files[index]!.segments.totalBytes();
