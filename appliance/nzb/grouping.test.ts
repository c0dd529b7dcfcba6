import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NzbBuilder } from '../../tests/support/nzb/builder.js';
import { par2Index } from '../../tests/support/nzb/par2-writer.js';
import { groupNzb, par2Plan } from './grouping.js';
import type { FileEvidence } from './grouping.js';
import { parsePar2 } from './par2.js';
import { parseNzb } from './parser.js';

const HASH = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const movieBytes = randomBytes(40_000);
const movie = { name: 'The.Real.Movie.2024.2160p.mkv', data: movieBytes };

function release() {
  return parseNzb(
    new NzbBuilder()
      .file((f) => f.subject(`[1/8] - "${HASH}" yEnc (1/3)`).segments(3, 14_000, 'obf'))
      .file((f) => f.subject('[2/8] - "The.Real.Movie.par2" yEnc (1/1)').segments(1, 900, 'par'))
      .file((f) => f.subject('[3/8] - "The.Real.Movie.vol0+1.par2" yEnc (1/5)').segments(5, 9000, 'vol'))
      .file((f) => f.subject('[4/8] - "The.Real.Movie.nfo" yEnc (1/1)').segments(1, 300, 'nfo'))
      .file((f) => f.subject('[5/8] - "Home.Video.mkv.002" yEnc (1/2)').segments(2, 1000, 'sp2'))
      .file((f) => f.subject('[6/8] - "Home.Video.mkv.001" yEnc (1/2)').segments(2, 1000, 'sp1'))
      .file((f) => f.subject('[7/8] - "Home.Video.mkv.003" yEnc (1/1)').segments(1, 500, 'sp3'))
      .file((f) => f.subject('[8/8] - "Broken.Set.ts.001" yEnc (1/1)').segments(1, 500, 'bs1'))
      .file((f) => f.subject('"Broken.Set.ts.003" yEnc (1/1)').segments(1, 500, 'bs3'))
      .toXml(),
  );
}

describe('groupNzb', () => {
  it('from the NZB alone: names from subjects, split pieces joined in order, par2 and extras put aside', () => {
    const grouped = groupNzb(release());
    const names = grouped.files.map((f) => f.name).sort();
    assert.deepEqual(names, [`${HASH}`, 'Broken.Set.ts.001', 'Broken.Set.ts.003', 'Home.Video.mkv'].sort());
    const joined = grouped.files.find((f) => f.name === 'Home.Video.mkv')!;
    assert.deepEqual(joined.parts, [5, 4, 6]);
    assert.equal(joined.kind, 'media');
    assert.deepEqual(
      grouped.par2.map((f) => f.parts[0]),
      [1, 2],
    );
    assert.deepEqual(
      grouped.extras.map((f) => f.name),
      ['The.Real.Movie.nfo'],
    );
    assert.match(grouped.warnings.join('\n'), /Broken\.Set\.ts is missing piece\(s\) 2/);
    assert.equal(grouped.files.find((f) => f.name === HASH)!.obfuscated, true);
  });

  it('resolves an obfuscated name through the PAR2 description matching its first 16 KiB', () => {
    const doc = release();
    const par2 = parsePar2(par2Index([movie, { name: 'other.bin', data: randomBytes(100) }])).files;
    const evidence: FileEvidence[] = [];
    evidence[0] = {
      yenc: { name: HASH, size: movieBytes.length, part: 1, begin: 1, end: 14_000 },
      head: movieBytes.subarray(0, 16384),
    };
    const grouped = groupNzb(doc, evidence, par2);
    const resolved = grouped.files.find((f) => f.parts[0] === 0)!;
    assert.equal(resolved.name, movie.name);
    assert.equal(resolved.nameSource, 'par2');
    assert.equal(resolved.obfuscated, false);
    assert.equal(resolved.par2?.length, movieBytes.length);
  });

  it('keeps the obfuscated name when the PAR2 length disagrees with the yEnc size', () => {
    const par2 = parsePar2(par2Index([movie])).files;
    const evidence: FileEvidence[] = [
      { yenc: { name: HASH, size: 123, begin: 1, end: 123 }, head: movieBytes.subarray(0, 16384) },
    ];
    assert.equal(groupNzb(release(), evidence, par2).files.find((f) => f.parts[0] === 0)!.name, HASH);
  });

  it('uses the yEnc header name when the subject has none, and renames duplicates', () => {
    const doc = parseNzb(
      new NzbBuilder()
        .file((f) => f.subject('no name here (1/1)').segments(1, 10, 'a'))
        .file((f) => f.subject('"Same.Name.mkv" yEnc (1/1)').segments(1, 10, 'b'))
        .file((f) => f.subject('"Same.Name.mkv" yEnc (1/1)').segments(1, 10, 'c'))
        .file((f) => f.subject('nothing').segments(1, 10, 'd'))
        .toXml(),
    );
    const evidence: FileEvidence[] = [{ yenc: { name: 'From.Header.mkv', size: 10 } }];
    const grouped = groupNzb(doc, evidence);
    assert.deepEqual(
      grouped.files.map((f) => [f.name, f.nameSource]),
      [
        ['From.Header.mkv', 'yenc'],
        ['Same.Name.mkv', 'subject'],
        ['Same.Name (2).mkv', 'subject'],
        ['file-4.bin', 'fallback'],
      ],
    );
  });
});

describe('par2Plan', () => {
  it('asks for PAR2 only when a name is obfuscated, smallest PAR2 file first', () => {
    assert.deepEqual(par2Plan(release()), { needed: true, par2FileIndexes: [1, 2] });
    const clean = parseNzb(
      new NzbBuilder()
        .file((f) => f.subject('"Clean.Name.mkv" yEnc (1/1)').segments(1, 10, 'a'))
        .file((f) => f.subject('"Clean.Name.par2" yEnc (1/1)').segments(1, 10, 'b'))
        .toXml(),
    );
    assert.deepEqual(par2Plan(clean), { needed: false, par2FileIndexes: [1] });
  });
});
