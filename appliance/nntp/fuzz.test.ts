/**
 * Hostile input, bounded and seeded: mutated and truncated articles fed to the decoder in random chunkings, and a
 * server answering commands with random bytes. Nothing may throw anything but a typed NntpError, every request
 * must settle, and anything returned as good data must match its declared size and CRC.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { fakeNntpFixture } from '../../tests/support/fake-nntp/fixtures.js';
import { mulberry32 } from '../../tests/support/seeded-random.js';
import { crc32Hex, encodeArticleBody } from '../../tests/support/yenc/encode.js';
import { DEFAULT_DECODE_LIMITS, YencArticleDecoder } from './article-decoder.js';
import { TextBlockSink } from './block-sinks.js';
import { NntpConnection } from './connection.js';
import { NntpError } from './errors.js';
import { typescriptBackend, yencBackend } from './yenc-backend.js';

// A new seed every run, so runs explore different inputs; a failure names its seed (printed here and in every
// assertion message) and `SPOOL_FUZZ_SEED=<seed> node --import tsx --test appliance/nntp/fuzz.test.ts` replays it.
const SEED = process.env.SPOOL_FUZZ_SEED ? Number(process.env.SPOOL_FUZZ_SEED) : randomInt(2 ** 31);
console.log(`fuzz seed ${SEED} (replay with SPOOL_FUZZ_SEED=${SEED})`);
const DICT = [
  '=ybegin ',
  '=ypart ',
  '=yend ',
  'part=',
  'size=',
  'begin=',
  'end=',
  'pcrc32=',
  'name=',
  '\r\n',
  '\r\n.\r\n',
  '..',
  '=',
  '\0',
  '999999999999999',
  '-1',
];

function mutate(input: Buffer, r: () => number): Buffer {
  let b: Buffer = Buffer.from(input);
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (b.length + 1));
    const op = Math.floor(r() * 6);
    if (op === 5) b = mutateField(b, r);
    else if (op === 0 && b.length > 0) b[Math.min(at, b.length - 1)] = Math.floor(r() * 256);
    else if (op === 1) b = b.subarray(0, at);
    else if (op === 2)
      b = Buffer.concat([
        b.subarray(0, at),
        Buffer.from(DICT[Math.floor(r() * DICT.length)]!, 'latin1'),
        b.subarray(at),
      ]);
    else if (op === 3) b = Buffer.concat([b.subarray(0, at), randomBytesFrom(r, Math.floor(r() * 64)), b.subarray(at)]);
    else b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + Math.floor(r() * 300)))]);
  }
  return b;
}

const FIELD = /(size|begin|end|part|total|pcrc32|crc32|line)=[^ \r\n]*/g;
const VALUES = ['0', '1', '-1', '', 'abc', '999999999999999', '4294967296', '1e9', 'ffffffff', '5001', '4999', '20001'];

/** Structure-aware: give one yEnc header field a hostile value (sizes and ranges that lie). */
function mutateField(b: Buffer, r: () => number): Buffer {
  const text = b.toString('latin1');
  const hits = [...text.matchAll(FIELD)];
  if (hits.length === 0) return b;
  const hit = hits[Math.floor(r() * hits.length)]!;
  const value = VALUES[Math.floor(r() * VALUES.length)]!;
  const at = hit.index;
  return Buffer.from(text.slice(0, at) + `${hit[1]}=${value}` + text.slice(at + hit[0].length), 'latin1');
}

function randomBytesFrom(r: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

function chunks(b: Buffer, r: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length;) {
    const n = 1 + Math.floor(r() * (r() < 0.3 ? 8 : 2000));
    out.push(b.subarray(i, i + n));
    i += n;
  }
  return out;
}

function assertTyped(err: unknown, context: string): void {
  assert.ok(err instanceof NntpError, `${context}: ${err instanceof Error ? err.stack : String(err)}`);
}

test('the yEnc decoder survives 3,000 mutated, truncated and re-chunked articles (native and TypeScript)', () => {
  const r = mulberry32(SEED);
  const data = randomBytesFrom(r, 5000);
  const multi = encodeArticleBody({ name: 'f.bin', fileSize: 20_000, part: 2, totalParts: 4, offset: 5000, data });
  const single = encodeArticleBody({ name: 'g.bin', fileSize: data.length, offset: 0, data });
  const limits = { ...DEFAULT_DECODE_LIMITS, maxPartBytes: 1 << 20 };
  let good = 0;
  for (let i = 0; i < 3000; i++) {
    const body = Buffer.concat([mutate(i % 2 ? multi : single, r), Buffer.from(r() < 0.8 ? '.\r\n' : '')]);
    const backend = i % 3 === 0 ? typescriptBackend : yencBackend();
    const dec = new YencArticleDecoder(
      backend,
      limits,
      { buf: Buffer.alloc(0) },
      r() < 0.5 ? Buffer.alloc(4096) : undefined,
    );
    let ended = false;
    try {
      for (const c of chunks(body, r)) {
        let pos = 0;
        while (pos < c.length && !ended) {
          const end = dec.feed(c, pos);
          if (end < 0) break;
          ended = true;
          pos = end;
        }
        if (ended) break;
      }
    } catch (err) {
      assertTyped(err, `seed ${SEED} case ${i} feed`);
      continue;
    }
    if (!ended) continue;
    try {
      const part = dec.result();
      assert.equal(part.data.length, part.partSize, `seed ${SEED} case ${i}`);
      if (part.crc)
        assert.equal(crc32Hex(part.data), part.crc, `seed ${SEED} case ${i}: returned data must match its CRC`);
      good++;
    } catch (err) {
      assertTyped(err, `seed ${SEED} case ${i} result`);
    }
  }
  assert.ok(good > 0 && good < 3000, `some mutations stay harmless, most do not (${good} decoded)`);
});

test('the HEAD block reader survives random bytes', () => {
  const r = mulberry32(SEED + 1);
  for (let i = 0; i < 2000; i++) {
    const sink = new TextBlockSink(512, 4096);
    try {
      for (const c of chunks(randomBytesFrom(r, Math.floor(r() * 6000)), r)) if (sink.feed(c, 0) >= 0) break;
      sink.result();
    } catch (err) {
      assertTyped(err, `seed ${SEED} case ${i}`);
    }
  }
});

const { fake } = fakeNntpFixture();

test('a server answering with random, truncated or half-valid bytes never crashes the client; every request settles', async () => {
  const r = mulberry32(SEED + 2);
  const valid = encodeArticleBody({ name: 'v.bin', fileSize: 3000, offset: 0, data: randomBytesFrom(r, 3000) });
  const replies = [
    () => randomBytesFrom(r, Math.floor(r() * 300)),
    () => Buffer.concat([Buffer.from('222 0 <x@y>\r\n'), mutate(valid, r), Buffer.from('\r\n.\r\n')]),
    () => Buffer.concat([Buffer.from('222 0 <x@y>\r\n'), valid.subarray(0, Math.floor(r() * valid.length))]),
    () =>
      Buffer.from(
        ['223 0 <x@y>', '430 no', '221 0 <x@y>\r\nA: b\r\n.', '111 2025', '500 what', '1', '99999 x', ''][
          Math.floor(r() * 8)
        ]! + '\r\n',
      ),
    () => 'close' as const,
  ];
  const s = await fake({ chaos: () => replies[Math.floor(r() * replies.length)]!() });
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);
  process.on('uncaughtException', onCrash);
  try {
    for (let round = 0; round < 60; round++) {
      const conn = await NntpConnection.open({
        host: s.host,
        port: s.port,
        tls: false,
        insecureTls: false,
        username: '',
        password: '',
        stallTimeoutMs: 300,
      });
      const ops = [conn.body('<a@b>'), conn.stat('<a@b>'), conn.head('<a@b>'), conn.date(), conn.body('<c@d>')];
      const settled = await Promise.allSettled(ops);
      for (const o of settled) if (o.status === 'rejected') assertTyped(o.reason, `seed ${SEED} round ${round}`);
      conn.destroy(undefined);
    }
  } finally {
    process.off('uncaughtException', onCrash);
  }
  assert.deepEqual(crashes, []);
});
