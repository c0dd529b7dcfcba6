import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gf16Addon, gf16Backend, mulAdd, mulAddMany } from './gf16-native.js';
import { gfMul } from './gf16.js';

// The addon (appliance/par2/native) against the field of gf16.ts, word by word, on every kernel this CPU runs.
// scripts/test.mjs builds the addons before the tests, so a missing addon fails here rather than passing on the
// TypeScript fallback.
const addon = gf16Addon!;
const kernels = gf16Addon ? gf16Addon.kernels() : [];

/** dst ^= factor * src computed one word at a time from gfMul. */
function reference(dst: Uint8Array, src: Uint8Array, factor: number): Buffer {
  const out = Buffer.from(dst);
  for (let i = 0; i + 1 < src.length; i += 2) {
    const p = gfMul(factor, src[i]! | (src[i + 1]! << 8));
    out[i]! ^= p & 0xff;
    out[i + 1]! ^= p >>> 8;
  }
  return out;
}

test('the addon is built, loads and runs a SIMD kernel on x86-64', () => {
  assert.ok(gf16Addon, 'appliance/par2/native is not built: npm run build:native');
  assert.equal(kernels.at(-1), 'scalar');
  if (process.arch === 'x64') assert.ok(kernels.includes('ssse3'), `kernels: ${kernels.join(', ')}`);
  assert.equal(gf16Backend, kernels[0]);
});

test('every factor 0..65535 on every kernel matches the field, over a region with a tail past the SIMD width', () => {
  const src = randomBytes(2 * 97); // 97 words: one AVX2 step, one SSSE3 step and a scalar tail
  const dst = randomBytes(src.length);
  for (let k = 1; k <= kernels.length; k++)
    for (let factor = 0; factor < 65536; factor++) {
      const got = Buffer.from(dst);
      addon.mulAdd(got, src, factor, k);
      const want = reference(dst, src, factor);
      if (!got.equals(want)) assert.fail(`kernel ${kernels[k - 1]}, factor ${factor}: wrong product`);
    }
});

test('random regions of many lengths and unaligned views match on every kernel', () => {
  for (const words of [1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 8191, 65537]) {
    const backing = randomBytes(2 * words + 3);
    const src = backing.subarray(1, 1 + 2 * words); // odd byte offset
    const dst = randomBytes(2 * words + 5).subarray(3, 3 + 2 * words);
    for (let k = 1; k <= kernels.length; k++)
      for (const factor of [1, 2, 0x100b, 0x8000, 0xffff, 1 + Math.floor(Math.random() * 65535)]) {
        const got = Buffer.from(dst);
        addon.mulAdd(got, src, factor, k);
        assert.ok(got.equals(reference(dst, src, factor)), `${kernels[k - 1]}, ${words} words, factor ${factor}`);
      }
  }
});

test('mulAddMany equals one mulAdd per (destination, source) pair, across column blocks', () => {
  const len = 3 * 4096 + 4 * 37; // three whole 4 KiB column blocks and a part of one
  const srcs = Array.from({ length: 5 }, () => randomBytes(len));
  const dsts = Array.from({ length: 3 }, () => randomBytes(len));
  const factors = Uint16Array.from({ length: 15 }, (_, i) => (i === 4 ? 0 : 1 + ((i * 7919) % 65535)));
  for (let k = 1; k <= kernels.length; k++) {
    const got = dsts.map((d) => Buffer.from(d));
    addon.mulAddMany(got, srcs, factors, k);
    for (let j = 0; j < dsts.length; j++) {
      let want: Buffer = Buffer.from(dsts[j]!);
      for (let b = 0; b < srcs.length; b++) want = reference(want, srcs[b]!, factors[j * srcs.length + b]!);
      assert.ok(got[j]!.equals(want), `${kernels[k - 1]}, destination ${j}`);
    }
  }
  const viaWrapper = dsts.map((d) => Buffer.from(d));
  mulAddMany(viaWrapper, srcs, factors);
  const one = Buffer.from(dsts[0]!);
  for (let b = 0; b < srcs.length; b++) mulAdd(one, srcs[b]!, factors[b]!);
  assert.ok(viaWrapper[0]!.equals(one));
});

test('bad arguments throw a TypeError or RangeError instead of touching memory', () => {
  const a = Buffer.alloc(8);
  assert.throws(() => addon.mulAdd(a, Buffer.alloc(6), 3), TypeError);
  assert.throws(() => addon.mulAdd(Buffer.alloc(3), Buffer.alloc(3), 3), TypeError);
  assert.throws(() => addon.mulAdd(a, a, 65536), TypeError);
  assert.throws(() => addon.mulAdd(a, new Uint16Array(4) as unknown as Uint8Array, 3), TypeError);
  assert.throws(() => addon.mulAdd(a, a, 3, kernels.length + 1), TypeError);
  assert.throws(() => addon.mulAddMany([a], [a, a], new Uint16Array(1)), TypeError);
  assert.throws(() => addon.mulAddMany([a], [Buffer.alloc(4)], new Uint16Array(1)), TypeError);
  assert.throws(() => mulAddMany([a], [a], new Uint16Array(2)), RangeError);
  assert.throws(() => mulAdd(a, Buffer.alloc(6), 1), RangeError);
});
