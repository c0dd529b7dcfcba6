import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { encodeArticleBody } from '../../tests/support/yenc/encode.js';
import { DEFAULT_DECODE_LIMITS, YencArticleDecoder } from './article-decoder.js';
import { CorruptArticleError, ProtocolError } from './errors.js';
import { loadNativeBackend, typescriptBackend, type YencBackend } from './yenc-backend.js';

const native = loadNativeBackend();
if (native instanceof Error) throw native;
const backends: YencBackend[] = [native, typescriptBackend];

/** Feed `wire` in pieces of the given sizes (cycled); returns where the block ended and the decoder. */
function decode(backend: YencBackend, wire: Buffer, pieces: number[], into?: Buffer) {
  const d = new YencArticleDecoder(
    backend,
    { ...DEFAULT_DECODE_LIMITS, maxLineBytes: 1024 },
    { buf: Buffer.alloc(0) },
    into,
  );
  let pos = 0;
  let k = 0;
  while (pos < wire.length) {
    const size = pieces[k++ % pieces.length]!;
    const chunk = wire.subarray(pos, pos + size);
    const end = d.feed(chunk, 0);
    if (end >= 0) return { end: pos + end, d };
    pos += chunk.length;
  }
  return { end: -1, d };
}

const article = (body: Buffer) => Buffer.concat([body, Buffer.from('.\r\n')]);

test('both decoders return the exact bytes and header facts, whatever the chunking', () => {
  for (let round = 0; round < 20; round++) {
    const data = randomBytes(1 + Math.floor(Math.random() * 200_000));
    const wire = article(
      encodeArticleBody({
        name: 'file name.mkv',
        fileSize: 10_000_000,
        part: 3,
        totalParts: 40,
        offset: 500_000,
        data,
      }),
    );
    const pieces = [1 + Math.floor(Math.random() * 5000), 1, 2, 3, 7, 65536];
    for (const be of backends) {
      const { end, d } = decode(be, Buffer.concat([wire, Buffer.from('223 next')]), pieces);
      assert.equal(end, wire.length, `${be.name} stops right after the terminator`);
      const r = d.result();
      assert.ok(r.data.equals(data), `${be.name} bytes`);
      assert.equal(r.name, 'file name.mkv');
      assert.deepEqual(
        [r.part, r.totalParts, r.begin, r.end, r.partSize, r.totalSize],
        [3, 40, 500_001, 500_000 + data.length, data.length, 10_000_000],
      );
      assert.match(r.crc!, /^[0-9a-f]{8}$/);
    }
  }
});

test('decoders agree on dot-stuffed lines and every escape', () => {
  // Bytes that encode to "." (4), "=" and friends at line starts.
  const data = Buffer.alloc(4096);
  for (let i = 0; i < data.length; i++) data[i] = i % 3 === 0 ? 4 : i & 255;
  const wire = article(encodeArticleBody({ name: 'x', fileSize: data.length, data, offset: 0, lineLength: 16 }));
  for (const be of backends) assert.ok(decode(be, wire, [13]).d.result().data.equals(data), be.name);
});

test('single-part posts decode and use crc32', () => {
  const data = randomBytes(1000);
  for (const be of backends) {
    const r = decode(
      be,
      article(encodeArticleBody({ name: 'one.bin', fileSize: 1000, data, offset: 0 })),
      [100],
    ).d.result();
    assert.ok(r.data.equals(data));
    assert.deepEqual([r.part, r.begin, r.end], [1, 1, 1000]);
  }
});

test('decodes into a caller buffer when it is large enough', () => {
  const data = randomBytes(5000);
  const into = Buffer.alloc(8000);
  const r = decode(
    native,
    article(encodeArticleBody({ name: 'a', fileSize: 5000, part: 1, data, offset: 0 })),
    [999],
    into,
  ).d.result();
  assert.equal(r.data.buffer, into.buffer);
  assert.ok(r.data.equals(data));
});

test('a wrong CRC is a CorruptArticleError, and the whole article is still consumed', () => {
  const data = randomBytes(3000);
  const wire = article(encodeArticleBody({ name: 'a', fileSize: 3000, part: 1, data, offset: 0, fakeCrc: 'deadbeef' }));
  for (const be of backends) {
    const { end, d } = decode(be, wire, [500]);
    assert.equal(end, wire.length);
    assert.throws(
      () => d.result(),
      (e) => e instanceof CorruptArticleError && /CRC/.test(e.message),
    );
  }
});

test('size mismatches, missing =yend and missing yEnc are corrupt articles', () => {
  const data = randomBytes(3000);
  const cases: Buffer[] = [
    article(encodeArticleBody({ name: 'a', fileSize: 9000, part: 1, data, offset: 0, fakeSize: 2999 })),
    // declared part is larger than the data sent
    article(
      Buffer.from(`=ybegin part=1 line=128 size=9000 name=a\r\n=ypart begin=1 end=5000\r\n`).subarray(0),
    ).subarray(0),
    article(Buffer.from('just some text\r\nno yenc here\r\n')),
    article(
      Buffer.concat([
        Buffer.from('=ybegin part=1 line=128 size=9000 name=a\r\n=ypart begin=1 end=3000\r\n'),
        encodeArticleBody({ name: 'a', fileSize: 3000, data, offset: 0 }).subarray(40, 2000),
        Buffer.from('\r\n'),
      ]),
    ),
    article(Buffer.from('=ybegin part=1 line=128 size=abc name=a\r\n')),
    article(Buffer.from('=ybegin part=1 line=128 size=10 name=a\r\n=ypart begin=5 end=50\r\n')),
  ];
  for (const wire of cases) {
    for (const be of backends) {
      const { end, d } = decode(be, wire, [64]);
      assert.equal(end, wire.length, 'consumed to the terminator');
      assert.throws(() => d.result(), CorruptArticleError);
    }
  }
});

test('more data than the header declares is corrupt, never written past the buffer', () => {
  const data = randomBytes(4000);
  const body = encodeArticleBody({ name: 'a', fileSize: 4000, part: 1, data, offset: 0 });
  const lied = Buffer.from(body.toString('latin1').replace('end=4000', 'end=100'), 'latin1');
  for (const be of backends) {
    const into = Buffer.alloc(100);
    const { d } = decode(be, article(lied), [4096], into);
    assert.throws(() => d.result(), CorruptArticleError);
  }
});

test('an oversized header line is a protocol error thrown at once (the stream cannot be trusted)', () => {
  const wire = article(Buffer.concat([Buffer.alloc(5000, 0x41), Buffer.from('\r\nmore\r\n')]));
  for (const be of backends) assert.throws(() => decode(be, wire, [100]), ProtocolError);
});

test('an article whose tail shares a chunk with the next pipelined article decodes exactly, escapes at every cut', () => {
  const escapy = [214, 224, 227, 19, 0, 255];
  for (let round = 0; round < 12; round++) {
    const data = randomBytes(60_000 + Math.floor(Math.random() * 120_000));
    // Dense escapes, so the cut at `room` input bytes lands inside an escape pair in some rounds.
    for (let i = 0; i < data.length; i += 1 + (i % 3)) data[i] = escapy[i % escapy.length]!;
    const body = { name: 'a.bin', fileSize: 10_000_000, part: 1, totalParts: 9, offset: 0, data };
    const first = article(encodeArticleBody(body));
    const next = article(encodeArticleBody({ ...body, part: 2, offset: data.length }));
    const wire = Buffer.concat([first, Buffer.from('222 0 <next@x>\r\n'), next]);
    const piece = 20_000 + Math.floor(Math.random() * 200_000);
    for (const be of backends) {
      const { end, d } = decode(be, wire, [piece]);
      assert.equal(end, first.length, `${be.name} stops right after the first terminator (piece ${piece})`);
      assert.ok(d.result().data.equals(data), `${be.name} bytes (piece ${piece})`);
    }
  }
});

test('the yEnc name= is UTF-8 (Latin-1 only for bytes that are not UTF-8), without control characters', () => {
  const data = randomBytes(500);
  const body = (name: Buffer) => {
    const wire = encodeArticleBody({ name: 'NAME', fileSize: 500, part: 1, data, offset: 0 });
    const at = wire.indexOf('NAME');
    return article(Buffer.concat([wire.subarray(0, at), name, wire.subarray(at + 4)]));
  };
  const cases: [Buffer, string][] = [
    [Buffer.from('Amélie.2001.1080p.mkv', 'utf8'), 'Amélie.2001.1080p.mkv'],
    [Buffer.from('Amélie.2001.1080p.mkv', 'latin1'), 'Amélie.2001.1080p.mkv'],
    [Buffer.concat([Buffer.from('Süß.', 'utf8'), Buffer.from([0xe9]), Buffer.from('.mkv')]), 'Süß.é.mkv'],
    [Buffer.from('a\u0007b\u0085c\u202Ed.mkv', 'utf8'), 'abcd.mkv'],
  ];
  for (const be of backends) {
    for (const [raw, want] of cases) assert.equal(decode(be, body(raw), [64]).d.result().name, want, be.name);
  }
});
