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

test('Utf8Writer: kept bytes copied in land in order between written strings, consecutive ranges as one', () => {
  const earlier = Buffer.from('<a>one</a><b>two</b><c>three</c>', 'utf8');
  const w = new Utf8Writer(8);
  w.write('<x>');
  w.copy(earlier, 0, 10); // <a>one</a>
  w.copy(earlier, 10, 20); // <b>two</b>, following on: one copy with the range before
  assert.equal(w.length, 23);
  w.write('é');
  w.copy(earlier, 20, earlier.length);
  w.copy(earlier, 0, 3); // not following on: a range of its own
  assert.equal(w.bytes().toString('utf8'), '<x><a>one</a><b>two</b>é<c>three</c><a>');
  assert.equal(w.length, w.bytes().length);
});
