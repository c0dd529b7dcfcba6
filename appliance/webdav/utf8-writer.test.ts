import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Utf8Writer } from './utf8-writer.js';

test('Utf8Writer: what it holds is the UTF-8 of every string written, in order, past its first size', () => {
  const parts = ['<a>', 'ümlaut ✓ 𝄞', 'x'.repeat(3000), '', '日本語'.repeat(500), '</a>'];
  const w = new Utf8Writer(16);
  for (const p of parts) w.write(p);
  assert.deepEqual(w.bytes(), Buffer.from(parts.join(''), 'utf8'));
});

test('Utf8Writer: an exact first size is filled without growing, and a string that just fits is written whole', () => {
  const s = 'é'.repeat(600); // 1200 bytes
  const w = new Utf8Writer(2400);
  w.write(s);
  w.write(s);
  assert.equal(w.bytes().length, 2400);
  assert.equal(w.bytes().toString('utf8'), s + s);
});
