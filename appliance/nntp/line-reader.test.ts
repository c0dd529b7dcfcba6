import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineReader, TerminatorScanner } from './line-reader.js';
import { ProtocolError } from './errors.js';

test('the terminator is found at every possible split', () => {
  const block = Buffer.from('line one\r\n..dotted\r\n.\r\nNEXT');
  for (let cut = 0; cut <= block.length; cut++) {
    const s = new TerminatorScanner();
    const a = block.subarray(0, cut);
    const b = block.subarray(cut);
    const first = s.scan(a, 0);
    const end = first >= 0 ? first : cut + s.scan(b, 0);
    assert.equal(end, block.length - 4, `cut at ${cut}`);
  }
});

test('an empty block ends at once; a dot inside a line is not a terminator', () => {
  assert.equal(new TerminatorScanner().scan(Buffer.from('.\r\n'), 0), 3);
  assert.equal(new TerminatorScanner().scan(Buffer.from('a.\r\nb\r\n'), 0), -1);
  assert.equal(new TerminatorScanner(false).scan(Buffer.from('.\r\nx\r\n.\r\n'), 0), 9);
});

test('lines are read across chunks and oversized lines are refused', () => {
  const r = new LineReader(10);
  assert.equal(r.read(Buffer.from('200 he'), 0), null);
  assert.deepEqual(r.read(Buffer.from('llo\r\nrest'), 0), { line: '200 hello', next: 5 });
  assert.throws(() => new LineReader(10).read(Buffer.from('x'.repeat(11)), 0), ProtocolError);
});
