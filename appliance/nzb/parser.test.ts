import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NzbBuilder } from '../../tests/support/nzb/builder.js';
import { NzbParseError } from './errors.js';
import { NzbStreamParser, parseNzb, parseNzbStream } from './parser.js';

const sample = () =>
  new NzbBuilder()
    .meta('password', 's3cr3t')
    .meta('Title', 'Café & Crème 日本')
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
    .file((f) => f.subject('"readme.nfo" yEnc (1/1)').segment(1, 'n@x', 10));

function rejects(input: string | Buffer, kind: NzbParseError['kind'], pattern: RegExp, limits = {}) {
  assert.throws(
    () => parseNzb(input, limits),
    (err: unknown) => {
      assert.ok(err instanceof NzbParseError, `expected NzbParseError, got ${String(err)}`);
      assert.equal(err.kind, kind, err.message);
      assert.match(err.message, pattern);
      return true;
    },
  );
}

describe('parseNzb: reading', () => {
  it('reads meta, files, groups and segments, sorted by number with brackets stripped', () => {
    const doc = parseNzb(sample().toBuffer());
    assert.deepEqual(doc.meta, { password: ['s3cr3t'], title: ['Café & Crème 日本'] });
    assert.equal(doc.files.length, 2);
    const [movie] = doc.files;
    assert.equal(movie!.subject, '[1/2] - "Café.mkv" yEnc (1/3)');
    assert.equal(movie!.poster, 'poster <p@example.com>');
    assert.equal(movie!.date, 1_712_345_678);
    assert.deepEqual(movie!.groups, ['alt.binaries.a', 'alt.binaries.b']);
    assert.deepEqual(movie!.segments.toArray(), [
      { number: 1, bytes: 100, messageId: 'a@x' },
      { number: 2, bytes: 200, messageId: 'b@x' },
      { number: 3, bytes: 300, messageId: 'c@x' },
    ]);
    assert.equal(movie!.missingCount, 0);
    assert.deepEqual(doc.warnings, []);
  });

  it('drops duplicate numbers (first wins) and reports gaps', () => {
    const xml = new NzbBuilder()
      .file((f) => f.segment(1, 'a@x', 1).segment(4, 'd@x', 1).segment(1, 'dup@x', 1).segment(7, 'g@x', 1))
      .toXml();
    const [file] = parseNzb(xml).files;
    assert.deepEqual(
      file!.segments.toArray().map((s) => s.messageId),
      ['a@x', 'd@x', 'g@x'],
    );
    assert.equal(file!.duplicatesDropped, 1);
    assert.equal(file!.missingCount, 4);
    assert.deepEqual(file!.missingNumbers, [2, 3, 5, 6]);
  });

  it('counts a huge gap without listing it all', () => {
    const xml = new NzbBuilder().file((f) => f.segment(1, 'a@x', 1).segment(1_000_000, 'z@x', 1)).toXml();
    const [file] = parseNzb(xml).files;
    assert.equal(file!.missingCount, 999_998);
    assert.equal(file!.missingNumbers.length, 100);
  });

  it('leaves out files without segments, with a warning, and accepts a missing bytes attribute as 0', () => {
    const xml = new NzbBuilder()
      .file((f) => f.subject('empty'))
      .file((f) => f.segment(1, 'a@x'))
      .toXml();
    const doc = parseNzb(xml);
    assert.equal(doc.files.length, 1);
    assert.equal(doc.files[0]!.segments.bytes(0), 0);
    assert.match(doc.warnings[0]!, /empty.*no segments/);
  });

  it('gives the same document when streamed one byte at a time (multi-byte characters split)', async () => {
    const buffer = sample().toBuffer();
    const chunks = [...buffer].map((b) => Buffer.from([b]));
    const streamed = await parseNzbStream(Readable.from(chunks));
    assert.deepEqual(streamed, parseNzb(buffer));
  });

  it('decodes documents declared ISO-8859-1', () => {
    const xml = sample().toXml().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const doc = parseNzb(Buffer.from(xml, 'latin1').subarray(0, Buffer.byteLength(xml, 'latin1')));
    assert.equal(doc.files[0]!.subject, '[1/2] - "Café.mkv" yEnc (1/3)');
  });

  it('accepts a namespace prefix and CDATA message-ids', () => {
    const xml =
      '<n:nzb xmlns:n="http://www.newzbin.com/DTD/2003/nzb"><n:file subject="x"><n:groups><n:group>g</n:group>' +
      '</n:groups><n:segments><n:segment number="1" bytes="5"><![CDATA[<cd@x>]]></n:segment></n:segments></n:file></n:nzb>';
    assert.equal(parseNzb(xml).files[0]!.segments.messageId(0), 'cd@x');
  });
});

describe('parseNzb: hostile and broken input', () => {
  it('refuses a billion-laughs entity bomb without expanding it', () => {
    const lol = [...Array(10).keys()].map((i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE nzb [<!ENTITY lol0 "lol">${lol}]><nzb>&lol10;</nzb>`;
    rejects(bomb, 'forbidden', /internal subset/);
  });

  it('refuses an external entity declaration, and never reads an external DTD', () => {
    rejects('<!DOCTYPE nzb [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><nzb>&xxe;</nzb>', 'forbidden', /DOCTYPE/);
    rejects('<!DOCTYPE nzb SYSTEM "file:///etc/passwd"><nzb>&xxe;</nzb>', 'malformed', /undefined entity/);
    rejects('<!DOCTYPE html><nzb/>', 'forbidden', /only a DOCTYPE for <nzb>/);
  });

  it('accepts the standard newzbin DOCTYPE', () => {
    assert.equal(parseNzb(sample().toXml()).files.length, 2);
  });

  it('stops 10^6 nested elements at the depth limit', () => {
    const deep = `<nzb>${'<a>'.repeat(1_000_000)}${'</a>'.repeat(1_000_000)}</nzb>`;
    rejects(deep, 'limit', /nested deeper than 16/);
  });

  it('refuses oversized attributes and text, too many attributes, elements, files and segments', () => {
    const big = 'x'.repeat(5000);
    rejects(new NzbBuilder().file((f) => f.subject(big).segment(1, 'a@x')).toXml(), 'limit', /attribute subject/);
    rejects(new NzbBuilder().file((f) => f.segment(1, `${big}@x`)).toXml(), 'limit', /text value is longer/);
    const attrs = Array.from({ length: 40 }, (_, i) => `a${i}="1"`).join(' ');
    rejects(`<nzb><file ${attrs}/></nzb>`, 'limit', /more than 32 attributes/);
    const twoFiles = new NzbBuilder().file((f) => f.segment(1, 'a@x')).file((f) => f.segment(1, 'b@x'));
    rejects(twoFiles.toXml(), 'limit', /more than 1 files/, { maxFiles: 1 });
    rejects(twoFiles.toXml(), 'limit', /more than 5 elements/, { maxElements: 5 });
    const many = new NzbBuilder().file((f) => f.segments(1001, 10)).toXml();
    rejects(many, 'limit', /more than 1000 segments/, { maxSegmentsPerFile: 1000 });
    rejects(twoFiles.toXml(), 'limit', /more than 1 segments in total/, { maxTotalSegments: 1 });
  });

  it('refuses a document over the size limit while streaming, before reading further', async () => {
    const parser = new NzbStreamParser({ maxBytes: 1000 });
    parser.write('<nzb>');
    assert.throws(() => parser.write(' '.repeat(1000)), /larger than 1000 bytes/);
    assert.throws(() => parser.write('</nzb>'), NzbParseError, 'a failed parser stays failed');
    const huge = Readable.from(
      (function* () {
        yield '<nzb>';
        for (;;) yield ' '.repeat(65536);
      })(),
    );
    await assert.rejects(parseNzbStream(huge, { maxBytes: 1 << 20 }), /larger than 1048576 bytes/);
  });

  it('reports truncated XML with a line and column', () => {
    const xml = sample().toXml();
    assert.throws(
      () => parseNzb(xml.slice(0, Math.floor(xml.length / 2))),
      (err: unknown) =>
        err instanceof NzbParseError && err.kind === 'malformed' && err.line > 1 && /unclosed tag/.test(err.message),
    );
  });

  it('turns random bytes, empty input and plain text into NzbParseError', () => {
    for (let i = 0; i < 20; i++) {
      assert.throws(() => parseNzb(randomBytes(4096)), NzbParseError);
    }
    rejects('', 'malformed', /root element/);
    rejects('hello world', 'malformed', /text data outside of root node/);
    rejects('<html><body/></html>', 'invalid', /root element is <html>/);
    rejects('<nzb></nzb>', 'invalid', /no files/);
  });

  it('refuses negative, fractional and non-numeric bytes or numbers, and missing or unsafe message-ids', () => {
    const one = (seg: string) => `<nzb><file subject="s"><segments>${seg}</segments></file></nzb>`;
    rejects(one('<segment number="1" bytes="-5">a@x</segment>'), 'invalid', /bytes="-5"/);
    rejects(one('<segment number="1" bytes="NaN">a@x</segment>'), 'invalid', /bytes="NaN"/);
    rejects(one('<segment number="1" bytes="1.5">a@x</segment>'), 'invalid', /bytes="1.5"/);
    rejects(one('<segment number="0" bytes="1">a@x</segment>'), 'invalid', /number="0"/);
    rejects(one('<segment bytes="1">a@x</segment>'), 'invalid', /number=""/);
    rejects(one('<segment number="1" bytes="1"></segment>'), 'invalid', /no message-id/);
    rejects(one('<segment number="1" bytes="1">  &lt;&gt; </segment>'), 'invalid', /no message-id/);
    rejects(one('<segment number="1" bytes="1">a@x&#13;&#10;QUIT</segment>'), 'invalid', /control characters/);
  });
});
