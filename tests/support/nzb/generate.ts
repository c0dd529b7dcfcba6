import type { YencFacts } from '../../../appliance/nzb/types.js';

export interface GeneratedFile {
  name: string;
  /** Decoded size of the file. */
  size: number;
  partSize: number;
  articles: number;
  /** The yEnc header facts the first and last articles of this file would carry if it were really posted. */
  first: YencFacts;
  last: YencFacts;
}

export interface GeneratedNzb {
  xml: Buffer;
  files: GeneratedFile[];
}

export interface GenerateOptions {
  /** Decoded bytes of the whole release (default 50 GB). */
  totalBytes?: number;
  /** Articles over all files (default 70,000). */
  articles?: number;
  /** Split the release into this many `.001`, `.002`, ... files (default 1: one plain file). */
  splitInto?: number;
  name?: string;
}

/** Encoded size of a yEnc article: ~2% escapes/line ends plus the header and trailer lines, as posters report it. */
export const encodedSizeOf = (decoded: number) => Math.ceil(decoded * 1.0205) + 180;

/** A message-id that looks like a posting tool's (40 pseudo-random hex chars), deterministic for a given index. */
export function messageIdFor(index: number): string {
  let a = (index + 1) * 2654435761;
  let hex = '';
  for (let i = 0; i < 5; i++) {
    a = (Math.imul(a ^ (a >>> 15), 2246822519) + i) >>> 0;
    hex += a.toString(16).padStart(8, '0');
  }
  return `${hex}@ngPost.spool.test`;
}

/**
 * Writes the NZB of a big release (by default 50 GB in 70,000 articles, the benchmark's case) without allocating a
 * string per segment more than once. Part size is chosen so the articles divide the bytes like a real poster would:
 * every article full except the last of each file.
 */
export function generateLargeNzb(options: GenerateOptions = {}): GeneratedNzb {
  const totalBytes = options.totalBytes ?? 50_000_000_000;
  const articles = options.articles ?? 70_000;
  const splitInto = options.splitInto ?? 1;
  const baseName = options.name ?? 'Big.Release.2024.2160p.UHD.BluRay.REMUX.HEVC-SPOOL.mkv';
  const partSize = Math.ceil(totalBytes / articles);
  const perFileArticles = Math.ceil(articles / splitInto);
  const chunks: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">\n',
    '<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">\n<head><meta type="title">Big Release</meta></head>\n',
  ];
  const files: GeneratedFile[] = [];
  let articleIndex = 0;
  let bytesLeft = totalBytes;
  for (let f = 0; f < splitInto && articleIndex < articles; f++) {
    const count = Math.min(perFileArticles, articles - articleIndex);
    const size = f === splitInto - 1 ? bytesLeft : Math.min(bytesLeft, count * partSize);
    bytesLeft -= size;
    const name = splitInto > 1 ? `${baseName}.${String(f + 1).padStart(3, '0')}` : baseName;
    const subject = `[${f + 1}/${splitInto}] - "${name}" yEnc (1/${count})`;
    chunks.push(
      `<file poster="Spool Tester &lt;tester@spool.test&gt;" date="1700000000" subject="${subject.replace(/"/g, '&quot;')}">\n`,
      '<groups><group>alt.binaries.test</group><group>alt.binaries.misc</group></groups>\n<segments>\n',
    );
    for (let n = 1; n <= count; n++) {
      const decoded = n < count ? partSize : size - (count - 1) * partSize;
      chunks.push(
        `<segment bytes="${encodedSizeOf(decoded)}" number="${n}">${messageIdFor(articleIndex++)}</segment>\n`,
      );
    }
    chunks.push('</segments>\n</file>\n');
    const lastBegin = (count - 1) * partSize + 1;
    files.push({
      name,
      size,
      partSize,
      articles: count,
      first: { name, size, part: 1, total: count, begin: 1, end: Math.min(partSize, size) },
      last: { name, size, part: count, total: count, begin: lastBegin, end: size },
    });
  }
  chunks.push('</nzb>\n');
  return { xml: Buffer.from(chunks.join(''), 'utf8'), files };
}
