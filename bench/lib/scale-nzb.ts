/**
 * NZBs for the scale bench's import figures (bench/scale.bench.ts): every segment's message id is one the pattern
 * server answers (pattern-nntp.ts), so an import fetches and checks real articles without anything posted.
 */
import { PATTERN_ARTICLE, patternId } from './pattern-nntp.js';

export interface NzbFileSpec {
  name: string;
  articles: number;
}

let serial = 0;

/** An NZB of these files (one `<file>` each, `"name" yEnc (i/N)` subjects, 768,000-byte articles). */
export function patternNzb(files: readonly NzbFileSpec[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">\n'];
  for (const f of files) {
    const salt = `${Date.now().toString(36)}${(serial++).toString(36)}`;
    out.push(
      `<file poster="scale &lt;scale@spool&gt;" date="1767225600" subject="&quot;${f.name}&quot; yEnc (1/${f.articles})">\n`,
      '<groups><group>alt.binaries.test</group></groups>\n<segments>\n',
    );
    for (let i = 1; i <= f.articles; i++)
      out.push(
        `<segment bytes="${PATTERN_ARTICLE + 24_000}" number="${i}">${patternId(i, f.articles, `${salt}x${i.toString(36)}`)}</segment>\n`,
      );
    out.push('</segments>\n</file>\n');
  }
  out.push('</nzb>\n');
  return out.join('');
}
