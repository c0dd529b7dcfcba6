import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readKey, writeKey } from 'ordered-binary';
import { readNodeKey } from './tree-keys.store.js';

const strings = [
  '/',
  '',
  'a',
  "/complete/tv/Show.S01E01 & <odd> 'name' #1.mkv",
  'x'.repeat(63),
  'y'.repeat(64), // from 64 characters ordered-binary writes a string without escaping
  'z'.repeat(500),
  'ünïcödé – 日本語 🎬',
  'tab\there',
  '\u0001starts low',
  'nul\u0000inside',
  'nul\u0000inside a string long enough to be written raw by ordered-binary: 64+ chars',
  'ends low\u0004',
  '\u001b escape',
  'del\u007f',
  'lone \ud800 surrogate',
  '\u00ff latin1 top',
];

test('node keys read as ordered-binary reads them, whatever the strings hold', () => {
  const keys: unknown[] = [];
  for (const a of strings) for (const b of strings) keys.push([a, b]);
  keys.push('plain string', 42, -1.5, ['three', 'parts', 'key'], ['one'], [7, 'x'], ['x', 7]);
  const buf = Buffer.alloc(4096);
  for (const key of keys) {
    const end = writeKey(key as never, buf, 32);
    assert.deepStrictEqual(readNodeKey(buf, 32, end), readKey(buf, 32, end), JSON.stringify(key));
  }
});

test('a key of two ASCII strings is read without ordered-binary, and equal', () => {
  const buf = Buffer.alloc(4096);
  const key = ['/complete/tv/Bench.Job', "Show.S01E00001 & <odd> 'name' #1.mkv"];
  const end = writeKey(key, buf, 0);
  const got = readNodeKey(buf, 0, end);
  assert.deepStrictEqual(got, key);
  // the same bytes in a plain Uint8Array (no Buffer methods) still read, through ordered-binary
  assert.deepStrictEqual(readNodeKey(new Uint8Array(buf.subarray(0, end)), 0, end), key);
});
