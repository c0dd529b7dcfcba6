import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeParse, parserCorpus } from '../../tests/support/nzb/corpus.js';
import { generateLargeNzb } from '../../tests/support/nzb/generate.js';
import { parseNzb, parseNzbStream } from './parser.js';

/**
 * The packed parser (segments written straight into flat arrays, docs/nzb.md "Packed segments") gives what the
 * parser that built one object per segment gave: `parse-golden.json` holds, for each input of the fixed corpus
 * (tests/support/nzb/corpus.ts: well-formed, damaged, hostile, over limits), the sha256 of that parser's result
 * (document or error, with line and column), recorded before the change; small results are kept in clear too.
 */
const golden = JSON.parse(readFileSync(new URL('./parse-golden.json', import.meta.url), 'utf8')) as Record<
  string,
  { sha256: string; result: unknown }
>;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('packed parser: same results as the object-per-segment parser', () => {
  const corpus = parserCorpus();

  it('covers every recorded case', () => {
    assert.deepEqual(corpus.map((c) => c.name).sort(), Object.keys(golden).sort());
  });

  for (const c of corpus) {
    it(c.name, () => {
      const result = describeParse(() => parseNzb(c.input, c.limits));
      const expected = golden[c.name]!;
      if (typeof expected.result === 'object' && sha256(result) !== expected.sha256) {
        assert.deepEqual(JSON.parse(result), expected.result); // shows the difference
      }
      assert.equal(sha256(result), expected.sha256, result.slice(0, 300));
    });
  }

  it('gives the same result fed in 7-byte chunks as in one piece (UTF-8 split anywhere)', async () => {
    for (const c of corpus.filter((x) => !x.limits)) {
      // the first chunk holds the XML declaration (the encoding is read from it), then 7 bytes at a time
      const chunks = [c.input.subarray(0, 200)];
      for (let at = 200; at < c.input.length; at += 7) chunks.push(c.input.subarray(at, at + 7));
      const streamed = await parseNzbStream(Readable.from(chunks)).then(
        (doc) => () => doc,
        (err: unknown) => () => {
          throw err;
        },
      );
      assert.equal(
        describeParse(streamed),
        describeParse(() => parseNzb(c.input)),
        c.name,
      );
    }
  });

  it('grows its arrays past the first guess without losing a segment', () => {
    // a stream gives no size: the arrays start small and double many times over 20,000 segments
    const { xml } = generateLargeNzb({ articles: 20_000, totalBytes: 20_000 * 716_800, splitInto: 4 });
    const doc = parseNzb(xml.toString('utf8'));
    const parts = doc.files.map((f) => f.segments);
    assert.equal(
      parts.reduce((n, s) => n + s.length, 0),
      20_000,
    );
    assert.equal(parts[3]!.number(4_999), 5_000);
    assert.match(parts[3]!.messageId(4_999), /^[0-9a-f]{40}@ngPost\.spool\.test$/);
  });
});
