/**
 * A fixed set of NZB inputs (well-formed, damaged and hostile) for checking that the parser's results do not
 * change: `appliance/nzb/parser-equivalence.test.ts` compares each result with `parse-golden.json`, recorded from
 * the parser that built one object per segment (before the packed document of docs/nzb.md "Packed segments").
 * Deterministic: mutations come from a seeded generator, so the same case always has the same bytes.
 */
import type { NzbLimits } from '../../../appliance/nzb/limits.js';
import { NzbBuilder } from './builder.js';
import { generateLargeNzb } from './generate.js';
import { mulberry32 } from '../seeded-random.js';

export interface CorpusCase {
  name: string;
  input: Buffer;
  limits?: Partial<NzbLimits>;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const one = (segments: string, fileAttrs = 'subject="s"') =>
  `<nzb><file ${fileAttrs}><groups><group>g</group></groups><segments>${segments}</segments></file></nzb>`;

function wellFormed(): CorpusCase[] {
  const sample = new NzbBuilder()
    .meta('password', 's3cr3t')
    .meta('Title', 'Café & Crème 日本')
    .meta('password', ' second ')
    .file((f) =>
      f
        .subject('[1/2] - "Café.mkv" yEnc (1/3)')
        .poster('poster <p@example.com>')
        .date(1_712_345_678)
        .groups('alt.binaries.a', 'alt.binaries.b')
        .segment(3, 'c@x', 300)
        .segment(1, '<a@x>', 100)
        .segment(2, 'b@x', 200),
    )
    .file((f) => f.subject('empty'))
    .file((f) => f.subject('"readme.nfo" yEnc (1/1)').segment(1, 'n@x'));
  const messy = new NzbBuilder().file((f) =>
    f
      .segment(5, 'e@x', 5)
      .segment(1, 'a@x', 1)
      .segment(5, 'e-dup@x', 50)
      .segment(2, 'ü@x', 2)
      .segment(1, 'a-dup@x', 10)
      .segment(9, '日本@x', 9)
      .segment(2 ** 33, 'far@x', 2 ** 40),
  );
  const gap = new NzbBuilder().file((f) => f.segment(1, 'a@x', 1).segment(1_000_000, 'z@x', 1));
  const large = generateLargeNzb({ articles: 3_000, totalBytes: 3_000 * 716_800, splitInto: 3 });
  const latin1 = Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><nzb><file subject="Caf', 'latin1'),
    Buffer.from([0xe9]),
    Buffer.from('.mkv"><segments><segment number="1" bytes="7">caf', 'latin1'),
    Buffer.from([0xe9]),
    Buffer.from('@x</segment></segments></file></nzb>', 'latin1'),
  ]);
  return [
    { name: 'sample', input: sample.toBuffer() },
    { name: 'unsorted, duplicates, multibyte ids, numbers beyond 2^32', input: messy.toBuffer() },
    { name: 'huge gap', input: gap.toBuffer() },
    { name: 'generated 3,000 articles in 3 files', input: large.xml },
    { name: 'declared ISO-8859-1', input: latin1 },
    {
      name: 'namespace prefix and CDATA',
      input: utf8(
        '<n:nzb xmlns:n="http://www.newzbin.com/DTD/2003/nzb"><n:file subject="x"><n:groups><n:group>g</n:group>' +
          '</n:groups><n:segments><n:segment number="1" bytes="5"><![CDATA[<cd@x>]]></n:segment></n:segments></n:file></n:nzb>',
      ),
    },
    { name: 'entities in a message-id', input: utf8(one('<segment number="1">&#97;&amp;b@x</segment>')) },
    { name: 'spaces around values', input: utf8(one('<segment number=" 2 " bytes=" 7 ">  &lt;b@x&gt; </segment>')) },
    { name: 'segment outside a file', input: utf8(`<nzb><segment number="1">a@x</segment>${one('')}</nzb>`) },
  ];
}

function broken(): CorpusCase[] {
  const lol = [...Array(10).keys()].map((i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
  const cases: [string, string][] = [
    ['entity bomb', `<?xml version="1.0"?><!DOCTYPE nzb [<!ENTITY lol0 "lol">${lol}]><nzb>&lol10;</nzb>`],
    ['external entity', '<!DOCTYPE nzb [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><nzb>&xxe;</nzb>'],
    ['external DTD', '<!DOCTYPE nzb SYSTEM "file:///etc/passwd"><nzb>&xxe;</nzb>'],
    ['other DOCTYPE', '<!DOCTYPE html><nzb/>'],
    ['deep nesting', `<nzb>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</nzb>`],
    ['empty', ''],
    ['plain text', 'hello world'],
    ['html root', '<html><body/></html>'],
    ['no files', '<nzb></nzb>'],
    ['negative bytes', one('<segment number="1" bytes="-5">a@x</segment>')],
    ['fractional bytes', one('<segment number="1" bytes="1.5">a@x</segment>')],
    ['number 0', one('<segment number="0" bytes="1">a@x</segment>')],
    ['no number', one('<segment bytes="1">a@x</segment>')],
    ['no message-id', one('<segment number="1" bytes="1"></segment>')],
    ['brackets only', one('<segment number="1" bytes="1">  &lt;&gt; </segment>')],
    ['CRLF injection', one('<segment number="1" bytes="1">a@x&#13;&#10;QUIT</segment>')],
    ['space in id', one('<segment number="1">a b@x</segment>')],
    ['long id', one(`<segment number="1">${'x'.repeat(5000)}@x</segment>`)],
    ['long subject', one('<segment number="1">a@x</segment>', `subject="${'s'.repeat(5000)}"`)],
    ['unclosed', '<nzb><file>'],
    ['mismatched close', one('<segment number="1">a@x</segmnt>')],
  ];
  return cases.map(([name, xml]) => ({ name, input: utf8(xml) }));
}

function limited(): CorpusCase[] {
  const twoFiles = new NzbBuilder()
    .file((f) => f.segment(1, 'a@x'))
    .file((f) => f.segment(1, 'b@x'))
    .toBuffer();
  return [
    { name: 'file limit', input: twoFiles, limits: { maxFiles: 1 } },
    { name: 'element limit', input: twoFiles, limits: { maxElements: 5 } },
    { name: 'total segment limit', input: twoFiles, limits: { maxTotalSegments: 1 } },
    {
      name: 'per-file segment limit',
      input: new NzbBuilder().file((f) => f.segments(11, 10)).toBuffer(),
      limits: { maxSegmentsPerFile: 10 },
    },
    { name: 'size limit', input: twoFiles, limits: { maxBytes: 200 } },
  ];
}

/** Seeded damage to a real-looking NZB: truncation, a deleted or replaced byte, swapped or repeated lines. */
function mutated(): CorpusCase[] {
  const base = generateLargeNzb({ articles: 40, totalBytes: 40 * 716_800, splitInto: 2 }).xml;
  const next = mulberry32(13);
  const at = (n: number) => Math.floor(next() * n);
  const out: CorpusCase[] = [];
  for (let i = 0; i < 60; i++) {
    const kind = i % 5;
    let input: Buffer;
    if (kind === 0) input = base.subarray(0, at(base.length));
    else if (kind === 1) {
      const p = at(base.length);
      input = Buffer.concat([base.subarray(0, p), base.subarray(p + 1)]);
    } else if (kind === 2) {
      input = Buffer.from(base);
      input[at(base.length)] = at(256);
    } else {
      const lines = base.toString('utf8').split('\n');
      const a = at(lines.length);
      const b = at(lines.length);
      if (kind === 3) [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      else lines.splice(a, 0, lines[b]!);
      input = utf8(lines.join('\n'));
    }
    out.push({
      name: `mutation ${i} (${['truncated', 'byte deleted', 'byte replaced', 'lines swapped', 'line repeated'][kind]})`,
      input,
    });
  }
  return out;
}

export function parserCorpus(): CorpusCase[] {
  return [...wellFormed(), ...broken(), ...limited(), ...mutated()];
}

/** What a parse gave, as JSON with a fixed key order: the document (segments listed in order) or the error. */
export function describeParse(
  parse: () => {
    meta: object;
    warnings: string[];
    files: Iterable<unknown>[] | object[];
  },
): string {
  try {
    const doc = parse() as unknown as {
      meta: object;
      warnings: string[];
      files: {
        poster: string;
        date: number;
        subject: string;
        groups: string[];
        segments: Iterable<{ number: number; bytes: number; messageId: string }>;
        missingCount: number;
        missingNumbers: number[];
        duplicatesDropped: number;
      }[];
    };
    const files = doc.files.map((f) => ({
      poster: f.poster,
      date: f.date,
      subject: f.subject,
      groups: f.groups,
      segments: [...f.segments].map((s) => [s.number, s.bytes, s.messageId]),
      missingCount: f.missingCount,
      missingNumbers: f.missingNumbers,
      duplicatesDropped: f.duplicatesDropped,
    }));
    return JSON.stringify({ meta: Object.entries(doc.meta), warnings: doc.warnings, files });
  } catch (err) {
    const e = err as { name: string; kind?: string; message: string; line?: number; column?: number };
    return JSON.stringify({
      error: { name: e.name, kind: e.kind, message: e.message, line: e.line, column: e.column },
    });
  }
}
