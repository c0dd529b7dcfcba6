import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VfsNode } from '../vfs/types.js';
import { liveProp } from './properties.js';
import { escapeEncodedXml, escapeEtagXml, escapeXml } from './xml.js';

const node = (createdAt: number, modifiedAt: number): VfsNode => ({
  path: '/complete/tv/a.mkv',
  name: 'a.mkv',
  type: 'file',
  size: 1,
  createdAt,
  modifiedAt,
  etag: '"e"',
});

test('escapeXml: a name without XML specials comes back as it is; each of the five specials is escaped', () => {
  assert.equal(escapeXml('Show.S01E01.1080p.mkv'), 'Show.S01E01.1080p.mkv');
  assert.equal(escapeXml(`a<b>c&d"e'f`), 'a&lt;b&gt;c&amp;d&quot;e&apos;f');
  assert.equal(escapeXml('&&'), '&amp;&amp;');
});

test('the short escapes of an encoded name and of an etag give what escapeXml gives, whatever the text', () => {
  const texts = [
    'plain.mkv',
    `it's`,
    `''`,
    `a<b>c&d"e'f`,
    'ümlaut ✓',
    '',
    `'`,
    '"',
    '""',
    '"a&b"',
    `"it's"`,
    '"ab',
    'ab"',
  ];
  for (const t of texts) {
    const encoded = encodeURIComponent(t);
    assert.equal(escapeEncodedXml(encoded), escapeXml(encoded), encoded);
    assert.equal(escapeEtagXml(t), escapeXml(t), t);
  }
  assert.equal(escapeEtagXml('"1a2b3c4d-aae60-19acadbe500"'), '&quot;1a2b3c4d-aae60-19acadbe500&quot;');
});

test('the dates of a listing: each entry gets its own, alternating or repeated (the formatter remembers only the last)', () => {
  const a = node(Date.UTC(2024, 0, 2, 3, 4, 5), Date.UTC(2024, 5, 6, 7, 8, 9));
  const b = node(Date.UTC(2020, 11, 31), Date.UTC(2021, 0, 1));
  for (const n of [a, b, b, a, b]) {
    assert.equal(
      liveProp('{DAV:}creationdate', n, []),
      `<D:creationdate>${new Date(n.createdAt).toISOString()}</D:creationdate>`,
    );
    assert.equal(
      liveProp('{DAV:}getlastmodified', n, []),
      `<D:getlastmodified>${new Date(n.modifiedAt).toUTCString()}</D:getlastmodified>`,
    );
  }
});
