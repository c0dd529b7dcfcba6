import {
  groupNzb,
  parsePar2,
  type FileEvidence,
  type GroupedNzb,
  type NzbDocument,
  type Par2FileDescription,
  type VirtualFile,
} from '../nzb/index.js';
import type { ArticleClient } from '../articles/index.js';
import { concatLayouts, resolveLayout, type DeferredLayout, type FileLayout } from '../layout/index.js';
import { fetchImportArticle, isPar2Article, type FirstArticle } from './first-articles.js';
import { layoutPostedFile, type PlannedLayout } from './file-layouts.js';

/** An index .par2 is a few KB; a file of more articles than this is a recovery volume, not worth fetching whole. */
const MAX_PAR2_ARTICLES = 8;

/**
 * The PAR2 file descriptions of the release, read only when some file's name still looks obfuscated after the
 * subject and yEnc header had their say. PAR2 files are recognised by name or, when their names are obfuscated
 * too, by the packet magic at the start of their first article. The smallest one (the index) is read first.
 */
export async function readPar2Descriptions(
  client: ArticleClient,
  doc: NzbDocument,
  firsts: readonly FirstArticle[],
  evidence: readonly (FileEvidence | undefined)[],
  signal: AbortSignal,
): Promise<Par2FileDescription[]> {
  const provisional = groupNzb(doc, evidence, []);
  const needed = provisional.files.some((f) => f.obfuscated || f.nameSource === 'fallback');
  if (!needed) return [];
  const candidates = firsts
    .map((first, index) => ({ first, index }))
    .filter(({ first }) => isPar2Article(first))
    .sort((a, b) => doc.files[a.index]!.segments.length - doc.files[b.index]!.segments.length);
  for (const { first, index } of candidates) {
    if (first.missing) continue;
    const segments = doc.files[index]!.segments;
    if (segments.length > MAX_PAR2_ARTICLES) continue;
    // the first article's head is all of it for a small index; otherwise it is fetched again (docs/import.md)
    const pieces: Buffer[] = first.head.length === first.size ? [Buffer.from(first.head)] : [];
    for (let i = pieces.length; i < segments.length; i++) {
      const article = await fetchImportArticle(client, segments.messageId(i), signal);
      if (!article) break; // parsePar2 reads what it has; a damaged tail costs only the packets in it
      pieces.push(Buffer.from(article.data));
    }
    const index2 = parsePar2(Buffer.concat(pieces));
    if (index2.files.length > 0) return index2.files;
  }
  return [];
}

/** A PAR2 file of a release as posted: kept out of the tree for a PAR2 repair later (appliance/repair). */
export interface KeptPar2Layout {
  name: string;
  size: number;
  layout: FileLayout;
  /** An archive volume (the tree shows its members), kept beside the PAR2 files that protect it. */
  volume?: boolean;
}

/** The posted files the job does not show under their own name (archive volumes expanded into members). */
export function archiveVolumes(
  posted: readonly { name: string; size: number; layout: DeferredLayout }[],
  shown: readonly { name: string }[],
): KeptPar2Layout[] {
  const names = new Set(shown.map((f) => f.name));
  return posted
    .filter((f) => !names.has(f.name))
    .map((f) => ({ name: f.name, size: f.size, layout: resolveLayout(f.layout), volume: true }));
}

/**
 * The layouts of the release's PAR2 files (by name or, obfuscated, by their bytes), laid out like any posted file.
 * One whose first article is gone is left out: the repair reads what it can.
 */
export async function par2Layouts(
  client: ArticleClient,
  doc: NzbDocument,
  grouped: GroupedNzb,
  firsts: readonly FirstArticle[],
  signal: AbortSignal,
): Promise<KeptPar2Layout[]> {
  const isPar2 = (f: VirtualFile) => f.parts.every((p) => isPar2Article(firsts[p]!));
  const files = [...grouped.par2, ...grouped.files.filter(isPar2)];
  const kept: KeptPar2Layout[] = [];
  for (const file of files) {
    const pieces: PlannedLayout[] = [];
    for (const part of file.parts) {
      const first = firsts[part]!;
      if (first.missing) break;
      pieces.push(await layoutPostedFile(client, doc.files[part]!, file.name, first.facts, signal));
    }
    if (pieces.length < file.parts.length) continue;
    const layout = concatLayouts(pieces.map((p) => p.build()));
    kept.push({ name: file.name, size: layout.size, layout });
  }
  return kept;
}
