import assert from 'node:assert/strict';
import { createCipheriv, randomBytes, randomInt } from 'node:crypto';
import { test } from 'node:test';
import { decryptRange } from './decrypt.js';

test('decryptRange returns the plain bytes of any range, reading one block before it at most', async () => {
  const key = randomBytes(32);
  const iv = randomBytes(16);
  const plain = randomBytes(10_007);
  const padded = Buffer.concat([plain, Buffer.alloc(16 - (plain.length % 16))]);
  const c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
  const ciphertext = Buffer.concat([c.update(padded), c.final()]);
  const cipher = {
    algorithm: 'aes-256-cbc' as const,
    key: key.toString('hex'),
    iv: iv.toString('hex'),
    plainSize: plain.length,
  };
  /** Ciphertext in ragged chunks, as articles arrive; records what was asked. */
  const asked: [number, number][] = [];
  async function* read(from: number, to: number) {
    asked.push([from, to]);
    for (let at = from; at < to;) {
      const n = Math.min(to - at, 1 + randomInt(0, 700));
      yield ciphertext.subarray(at, at + n);
      at += n;
    }
  }
  const ranges: [number, number][] = [
    [0, plain.length],
    [0, 1],
    [15, 17],
    [16, 32],
    [31, 33],
    [plain.length - 1, plain.length],
    [plain.length - 20, plain.length],
  ];
  for (let i = 0; i < 40; i++) {
    const a = randomInt(0, plain.length);
    ranges.push([a, Math.min(plain.length, a + 1 + randomInt(0, 3000))]);
  }
  for (const [a, b] of ranges) {
    asked.length = 0;
    const parts: Buffer[] = [];
    for await (const p of decryptRange(cipher, a, b, read)) parts.push(Buffer.from(p));
    assert.deepEqual(Buffer.concat(parts), plain.subarray(a, b), `range ${a}-${b}`);
    const [from, to] = asked[0]!;
    assert.ok(a - from <= 31 && to - b < 16, `read ${from}-${to} for ${a}-${b}`);
  }
});
