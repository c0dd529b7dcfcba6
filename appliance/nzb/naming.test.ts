import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyName } from './classify.js';
import { chooseName, cleanFileName, isObfuscatedName, nameFromSubject } from './naming.js';
import { missingSplitPieces, parseSplitName } from '../archive/split.js';

describe('nameFromSubject', () => {
  const cases: [string, string | null][] = [
    ['"Movie.2024.1080p.mkv" yEnc (1/50)', 'Movie.2024.1080p.mkv'],
    ['[01/10] - "Show.S01E01.mkv" yEnc (1/50)', 'Show.S01E01.mkv'],
    ['My Release [03/10] - "My.Release.part03.rar" yEnc (12/200) 524288000', 'My.Release.part03.rar'],
    ['[PRiVATE]-[WtFnZb]-[Show.S02E05.1080p.mkv]-[1/5] - "" yEnc 1234 (1/10)', 'Show.S02E05.1080p.mkv'],
    ['Show.S01E02.720p.mkv (1/50)', 'Show.S01E02.720p.mkv'],
    ['Show.S01E02.720p.mkv yEnc (1/50) 1234567', 'Show.S01E02.720p.mkv'],
    ['[1/3] - Some Release - some.file.nfo yEnc (1/1)', 'some.file.nfo'],
    ['"dir/sub/..\\evil.mkv" yEnc (1/1)', 'evil.mkv'],
    ['"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6" yEnc (1/9)', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'],
    ['Just some words (1/5)', null],
    ['', null],
  ];
  for (const [subject, expected] of cases) {
    it(`${JSON.stringify(subject)} -> ${String(expected)}`, () => assert.equal(nameFromSubject(subject), expected));
  }
});

describe('isObfuscatedName', () => {
  for (const name of [
    'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.mkv',
    '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.mkv',
    'aB3dE9fGh2kLmN0pQrS7.mkv',
    'kqpwoeiruty8slkdjfhgzmxncbv12qwe.mkv',
    '.mkv',
    'f3a1c9e07b2d4e6f8a0b1c2d3e4f5a6b.part01.rar',
  ]) {
    it(`${name} looks obfuscated`, () => assert.equal(isObfuscatedName(name), true));
  }
  for (const name of [
    'The.Movie.2024.1080p.BluRay.x264-GRP.mkv',
    'Show S01E01 Pilot.mkv',
    'TheMovieName2020Remux.mkv',
    'movie.mkv',
    'The.Movie.2024.mkv.001',
    'release.vol03+04.par2',
  ]) {
    it(`${name} looks real`, () => assert.equal(isObfuscatedName(name), false));
  }
});

describe('choosing, cleaning, classifying, splitting', () => {
  it('prefers PAR2 over subject over yEnc, unless the stronger one is obfuscated', () => {
    const real = 'The.Movie.2024.1080p.mkv';
    const hash = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.mkv';
    assert.equal(
      chooseName([
        { name: real, source: 'par2' },
        { name: 'Other.Name.mkv', source: 'subject' },
      ])?.source,
      'par2',
    );
    assert.equal(
      chooseName([
        { name: hash, source: 'subject' },
        { name: real, source: 'yenc' },
      ])?.name,
      real,
    );
    assert.equal(
      chooseName([
        { name: 'The.Movie', source: 'subject' },
        { name: real, source: 'yenc' },
      ])?.name,
      real,
    );
    assert.equal(chooseName([]), null);
  });

  it('cleans names that would escape the virtual directory', () => {
    assert.equal(cleanFileName('../../etc/passwd'), 'passwd');
    assert.equal(cleanFileName('..'), '');
    assert.equal(cleanFileName(' "x\u0007y.mkv" '), 'xy.mkv');
  });

  it('classifies by extension', () => {
    assert.equal(classifyName('a.MKV'), 'media');
    assert.equal(classifyName('a.srt'), 'media');
    assert.equal(classifyName('a.part01.rar'), 'archive');
    assert.equal(classifyName('a.r07'), 'archive');
    assert.equal(classifyName('a.7z'), 'archive');
    assert.equal(classifyName('a.vol01+02.PAR2'), 'par2');
    assert.equal(classifyName('a.nfo'), 'extra');
    assert.equal(classifyName('a.sfv'), 'extra');
    assert.equal(classifyName('a.bin'), 'other');
    assert.equal(classifyName('noextension'), 'other');
  });

  it('recognises split pieces and finds holes', () => {
    assert.deepEqual(parseSplitName('movie.mkv.001'), { base: 'movie.mkv', index: 1 });
    assert.deepEqual(parseSplitName('set.7z.012'), { base: 'set.7z', index: 12 });
    assert.equal(parseSplitName('movie.r01'), null);
    assert.equal(parseSplitName('movie.mkv'), null);
    assert.deepEqual(missingSplitPieces([3, 1, 2]), []);
    assert.deepEqual(missingSplitPieces([0, 1, 2]), []);
    assert.deepEqual(missingSplitPieces([1, 4]), [2, 3]);
    assert.deepEqual(missingSplitPieces([2, 3]), [1]);
  });
});

test('cleanFileName drops C0, C1 and bidirectional control characters', () => {
  assert.equal(cleanFileName('Am\u0085élie\u202E.mkv\u0000'), 'Amélie.mkv');
  assert.equal(cleanFileName('a\u2066b\u2069\u200Fc.mkv'), 'abc.mkv');
});
