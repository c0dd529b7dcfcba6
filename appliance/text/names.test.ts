import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textFromBytes } from './names.js';

test('textFromBytes: UTF-8 where the bytes are UTF-8, Latin-1 only for the bytes that are not', () => {
  assert.equal(textFromBytes(Buffer.from('Amélie.2001.nzb', 'utf8')), 'Amélie.2001.nzb');
  assert.equal(textFromBytes(Buffer.from('Amélie.2001.nzb', 'latin1')), 'Amélie.2001.nzb');
  assert.equal(textFromBytes(Buffer.from([0xe2, 0x82, 0xac, 0x20, 0xe2, 0x82, 0x41])), '€ â\u0082A');
  assert.equal(textFromBytes(Buffer.from([0xf0, 0x9f, 0x8e, 0xac])), '🎬');
  assert.equal(textFromBytes(Buffer.from([0xed, 0xa0, 0x80])), 'í\u00a0\u0080', 'a UTF-16 surrogate is not UTF-8');
  assert.equal(textFromBytes(Buffer.from([0xc0, 0xaf])), 'À¯', 'an overlong form is not UTF-8');
});
