import { randomBytes, randomInt } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gfExp2, gfInv, gfMul, gfPow, mulAdd } from './gf16.js';

/** Carry-less multiply reduced by 0x1100B, bit by bit: the definition the tables must agree with. */
function slowMul(a: number, b: number): number {
  let product = 0;
  for (let bit = 0; bit < 16; bit++) if (b & (1 << bit)) product ^= a << bit;
  for (let bit = 31; bit >= 16; bit--) if (product & (1 << bit)) product ^= 0x1100b << (bit - 16);
  return product;
}

test('multiplication follows the PAR2 generator polynomial 0x1100B', () => {
  assert.equal(gfMul(0x8000, 2), 0x100b);
  assert.equal(gfExp2(16), 0x100b);
  assert.equal(gfExp2(65535), 1, '2 generates a group of order 65535');
  for (let i = 0; i < 2000; i++) {
    const a = randomInt(65536);
    const b = randomInt(65536);
    assert.equal(gfMul(a, b), slowMul(a, b), `${a} * ${b}`);
  }
});

test('inverses and powers agree with multiplication', () => {
  for (let i = 0; i < 500; i++) {
    const a = 1 + randomInt(65535);
    assert.equal(gfMul(a, gfInv(a)), 1);
    const e = randomInt(40);
    let p = 1;
    for (let j = 0; j < e; j++) p = gfMul(p, a);
    assert.equal(gfPow(a, e), p);
  }
  assert.throws(() => gfInv(0), RangeError);
});

test('mulAdd multiplies every little-endian word, aligned or not', () => {
  for (const offset of [0, 1, 2]) {
    const src = randomBytes(4096 + 8).subarray(offset, offset + 4096);
    const before = randomBytes(4096 + 8);
    const dst = Buffer.from(before).subarray(4 - offset, 4 - offset + 4096);
    const expected = Buffer.from(before.subarray(4 - offset, 4 - offset + 4096));
    const factor = 1 + randomInt(65535);
    for (let i = 0; i < 4096; i += 2)
      expected.writeUInt16LE(expected.readUInt16LE(i) ^ slowMul(src.readUInt16LE(i), factor), i);
    mulAdd(dst, src, factor);
    assert.ok(dst.equals(expected), `offset ${offset}`);
  }
  assert.throws(() => mulAdd(Buffer.alloc(6), Buffer.alloc(6), 3), RangeError);
});
