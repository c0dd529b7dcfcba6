import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileEntry } from '../../lib/webdav';
import { breadcrumbs, filterEntries, sortEntries } from './listing';
import { classifyPreview, isPreviewable, languageOf, lineCount, typeLabel } from './preview';
import { OVERSCAN_ROWS, columnsFor, visibleRows } from './virtualGrid';
import { availability, completeness } from './info/health';

const entry = (basename: string, type: 'file' | 'directory' = 'file'): FileEntry => ({
  filename: `/d/${basename}`,
  basename,
  lastmod: '',
  size: 1,
  type,
  etag: null,
  mime: null,
});

test('folders first, then names (case-insensitive, numbers in order)', () => {
  const sorted = sortEntries([
    entry('b.mkv'),
    entry('Zeta', 'directory'),
    entry('A.txt'),
    entry('alpha', 'directory'),
    entry('ep10.mkv'),
    entry('ep9.mkv'),
  ]);
  assert.deepEqual(
    sorted.map((e) => e.basename),
    ['alpha', 'Zeta', 'A.txt', 'b.mkv', 'ep9.mkv', 'ep10.mkv'],
  );
});

test('search is a case-insensitive substring; blank keeps all', () => {
  const list = [entry('Movie.2024.MKV'), entry('notes.txt'), entry('movie-sample.mkv')];
  assert.deepEqual(
    filterEntries(list, 'MOVIE').map((e) => e.basename),
    ['Movie.2024.MKV', 'movie-sample.mkv'],
  );
  assert.equal(filterEntries(list, '   ').length, 3);
  assert.equal(filterEntries(list, 'zzz').length, 0);
});

test('breadcrumbs start at Root and point at each level', () => {
  assert.deepEqual(breadcrumbs('/'), [{ label: 'Root', path: '/' }]);
  assert.deepEqual(breadcrumbs('/complete/movies'), [
    { label: 'Root', path: '/' },
    { label: 'complete', path: '/complete' },
    { label: 'movies', path: '/complete/movies' },
  ]);
});

test('preview classification of docs/console-contract.md §5', () => {
  assert.equal(classifyPreview('a.JPG'), 'image');
  assert.equal(classifyPreview('a.mkv'), 'video');
  assert.equal(classifyPreview('a.flac'), 'audio');
  assert.equal(classifyPreview('a.rs'), 'text');
  assert.equal(classifyPreview('a.pdf'), 'pdf');
  assert.equal(classifyPreview('a.7z'), 'archive');
  assert.equal(classifyPreview('a.bin'), 'unsupported');
  assert.equal(classifyPreview('noext', 'video/webm'), 'video');
  assert.equal(classifyPreview('noext', 'text/plain; charset=utf-8'), 'text');
  assert.equal(isPreviewable('a.rar'), false);
  assert.equal(isPreviewable('a.nfo'), false);
  assert.equal(isPreviewable('a.txt'), true);
  assert.equal(languageOf('x.py'), 'Python');
  assert.equal(typeLabel(entry('x.mkv')), 'MKV');
  assert.equal(typeLabel(entry('x', 'directory')), 'Folder');
});

test('line count ignores one trailing newline', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a'), 1);
  assert.equal(lineCount('a\nb\n'), 2);
  assert.equal(lineCount('a\r\nb\r\nc'), 3);
});

test('columns by width: 1 under 768, 2 under 1024, 3 under 1280, else 4', () => {
  assert.deepEqual(
    [
      columnsFor(500),
      columnsFor(767),
      columnsFor(768),
      columnsFor(1023),
      columnsFor(1024),
      columnsFor(1279),
      columnsFor(1280),
    ],
    [1, 1, 2, 2, 3, 3, 4],
  );
});

test('virtual rows: the 3 rows in a 600 px view plus 2 of overscan each side, clamped', () => {
  assert.deepEqual(visibleRows(400, 4, 0), { start: 0, end: 3 + OVERSCAN_ROWS, totalRows: 100 });
  assert.deepEqual(visibleRows(400, 4, 2000), { start: 10 - OVERSCAN_ROWS, end: 13 + OVERSCAN_ROWS, totalRows: 100 });
  assert.deepEqual(visibleRows(400, 4, 19_800), { start: 97, end: 100, totalRows: 100 });
  assert.deepEqual(visibleRows(101, 1, 0).totalRows, 101);
});

test('availability line and completeness', () => {
  assert.equal(availability({ segment_count: 8, available_segments: 7 }).text, '7 of 8 segments available (87.5%)');
  assert.equal(availability({ segment_count: 0, available_segments: 0 }).percent, 0);
  assert.equal(completeness({ segment_count: 3, available_segments: 3 }), 'Complete');
  assert.equal(completeness({ segment_count: 3, available_segments: 2 }), 'Incomplete');
});
