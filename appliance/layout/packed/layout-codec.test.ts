import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../tests/support/seeded-random.js';
import { ID_STYLES, realisticLayout } from '../../../tests/support/nzb/realistic-layouts.js';
import type { FileLayout, LayoutSegment } from '../layout.types.js';
import { LayoutCodecError } from './bytes.js';
import { decodeLayout, encodeLayout, isPackedLayout } from './layout-codec.js';

const roundTrip = (layout: FileLayout) => {
  const bytes = encodeLayout(layout);
  assert.ok(isPackedLayout(bytes));
  assert.deepEqual(decodeLayout(bytes), layout);
  return bytes;
};

test('realistic posted files round-trip exactly in every message-id style', () => {
  for (const style of ID_STYLES) {
    for (const articles of [1, 2, 37, 1000, 10_000]) roundTrip(realisticLayout({ articles, style, seed: articles }));
  }
});

test('a realistic mix of posted files costs under 25 bytes per article', () => {
  let bytes = 0;
  let articles = 0;
  for (const style of ID_STYLES) {
    for (const n of [1000, 3000, 10_000]) {
      const layout = realisticLayout({ articles: n, style, seed: n + style.length });
      bytes += encodeLayout(layout).length;
      articles += n;
    }
  }
  assert.ok(bytes / articles < 25, `${(bytes / articles).toFixed(2)} bytes per article`);
  // random hex ids (20 bytes of entropy each) are the worst case, still under the bound alone
  const hex = encodeLayout(realisticLayout({ articles: 10_000, style: 'random-hex' })).length / 10_000;
  assert.ok(hex < 25, `random hex ids: ${hex.toFixed(2)} bytes per article`);
});

test('a sequential post costs about a byte per article; odd ids among them are kept whole', () => {
  const layout = realisticLayout({ articles: 5000, style: 'sequential' });
  const plain = encodeLayout(layout).length;
  assert.ok(plain / 5000 < 3, `${plain / 5000} bytes per article`);
  const odd = structuredClone(layout);
  odd.segments[17]!.messageId = 'Ünïcødé-😀%41<x>@elsewhere';
  odd.segments[400]!.messageId = odd.segments[399]!.messageId; // a duplicated id
  odd.segments[999]!.messageId = 'part1000of5000.XXXXXXXXXX@powerpost.local.extra';
  odd.segments[3000]!.messageId = 'part0003001of5000.' + odd.segments[3000]!.messageId.split('.')[1] + '.local';
  const bytes = roundTrip(odd);
  assert.ok(bytes.length < plain + 200, `${bytes.length} bytes with four odd ids, ${plain} without`);
});

/** Message-ids from a template, with odd ones mixed in at the given rate. */
function idMaker(random: () => number) {
  // by code point: a JS string with half a surrogate pair has no UTF-8 form (nor had it in the msgpack store)
  const pick = (alphabet: string, n: number) => {
    const chars = Array.from(alphabet);
    return Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join('');
  };
  const odd = [
    () => `${pick('abc%$-+/=', 8)}@x`,
    () => `<${pick('0123456789', 3)}>@br<acket>`,
    () => `${pick('äöü€😀漢字', 5)}@ünïcødé.example`,
    () => `${pick('0123456789', 20)}@long.digits`,
    () => `00${pick('0123456789', 4)}.000@zeros`,
    () => pick('\u0000\u0001ab', 4),
    () => '',
  ];
  const templates = [
    (i: number) => `part${i + 1}of999.${pick('abcdef0123456789', 12)}@host`,
    () => `${pick('0123456789abcdef', 32)}@ngPost.com`,
    (i: number) => `${1_700_000_000 + (i >> 3)}.${pick('0123456789', 6)}.${i}@p.local`,
    () => `${pick('😀ab', 6)}@emoji`,
    (i: number) => `x${String(i).padStart(6, '0')}-${i % 3 === 0 ? 'a' : 'bb'}@mixed`,
  ];
  const template = templates[Math.floor(random() * templates.length)]!;
  const oddRate = random() < 0.5 ? 0 : random() * 0.3;
  let last = '';
  return (i: number) => {
    const r = random();
    if (r < oddRate) last = odd[Math.floor(random() * odd.length)]!();
    else if (r < oddRate + 0.02 && last)
      return last; // duplicated id
    else last = template(i);
    return last;
  };
}

function randomLayout(random: () => number): FileLayout {
  const n = Math.floor(random() * (random() < 0.1 ? 3000 : 60));
  const id = idMaker(random);
  const int = (max: number) => Math.floor(random() * max);
  const optional = () => (random() < 0.33 ? 'none' : random() < 0.5 ? 'all' : 'some');
  const fields = {
    articleOffset: optional(),
    articleSize: optional(),
    number: optional(),
    bytes: optional(),
  } as const;
  const huge = random() < 0.1;
  const tiled = random() < 0.7;
  const partSize = 1 + int(800_000);
  const segments: LayoutSegment[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const start = tiled ? at : int(1e9);
    const end = start + (random() < 0.9 ? partSize : 1 + int(partSize));
    at = end;
    const s: LayoutSegment = { messageId: id(i), start, end };
    const has = (f: keyof typeof fields) => fields[f] === 'all' || (fields[f] === 'some' && random() < 0.5);
    if (has('articleOffset')) s.articleOffset = random() < 0.8 ? 0 : int(1000);
    if (has('articleSize')) s.articleSize = random() < 0.8 ? end - start : int(2_000_000);
    if (has('number')) s.number = huge ? Number.MAX_SAFE_INTEGER - int(5) : random() < 0.9 ? i + 1 : int(1e6);
    if (has('bytes')) s.bytes = random() < 0.05 ? 0.5 + int(10) : partSize + int(900);
    segments.push(s);
  }
  const layout: FileLayout = { size: tiled ? at : int(1e12), segments };
  if (random() < 0.5) layout.groups = ['alt.binaries.test', 'ünï'];
  if (random() < 0.5) {
    layout.posts = [
      { poster: 'a <a@b>', date: 1, subject: '"x" yEnc (1/2)', groups: ['g'] },
      { poster: '😀', date: 2.5, subject: '', groups: [] },
    ];
    for (const s of segments) if (random() < 0.8) s.post = random() < 0.7 ? 0 : 1;
  }
  if (random() < 0.1)
    layout.cipher = { algorithm: 'aes-256-cbc', key: 'ab'.repeat(32), iv: 'cd'.repeat(16), plainSize: 5 };
  return layout;
}

test('random layouts round-trip exactly: fields present or not, odd and duplicated ids, any numbers', () => {
  const random = mulberry32(2411);
  for (let i = 0; i < 400; i++) {
    const layout = randomLayout(random);
    try {
      roundTrip(layout);
    } catch (e) {
      assert.fail(`case ${i} (${layout.segments.length} segments): ${(e as Error).message.slice(0, 2000)}`);
    }
  }
});

/** Decodes damaged bytes: any outcome but an exception other than LayoutCodecError. */
function decodesOrRefuses(bytes: Uint8Array, what: string): void {
  try {
    decodeLayout(bytes);
  } catch (e) {
    assert.ok(e instanceof LayoutCodecError, `${what}: ${(e as Error).stack}`);
  }
}

test('damaged bytes give a LayoutCodecError naming the damage, never another exception', () => {
  const random = mulberry32(77);
  const samples = [
    ...ID_STYLES.map((style) => encodeLayout(realisticLayout({ articles: 300, style }))),
    ...Array.from({ length: 20 }, () => encodeLayout(randomLayout(random))),
  ];
  for (const [k, bytes] of samples.entries()) {
    for (let cut = 0; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 60))) {
      assert.throws(() => decodeLayout(bytes.subarray(0, cut)), LayoutCodecError, `sample ${k} cut at ${cut}`);
    }
    for (let m = 0; m < 150; m++) {
      const bad = Buffer.from(bytes);
      for (let f = 0; f < 1 + Math.floor(random() * 3); f++)
        bad[5 + Math.floor(random() * (bad.length - 5))] = random() * 256;
      decodesOrRefuses(bad, `sample ${k} mutation ${m}`);
    }
  }
  assert.throws(() => decodeLayout(Buffer.from('{"size":1}')), /no SPL2 header/);
  // a body claiming billions of segments is refused before anything is allocated for them
  assert.throws(
    () => decodeLayout(Buffer.from([0x53, 0x50, 0x4c, 0x32, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f])),
    /segment count/,
  );
  assert.throws(() => decodeLayout(Buffer.from([0x53, 0x50, 0x4c, 0x32, 1, 1, 2, 3])), /does not decompress/);
});
