import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Par2Error } from '../../../appliance/par2/errors.js';
import { readPar2Set, type Par2Set } from '../../../appliance/par2/set.js';
import { findDamagedSlices, repairSlices, type SliceReader } from '../../../appliance/par2/solve.js';

// Sets made by Debian's par2 (par2cmdline, scripts/system-deps.mjs), repaired in memory by appliance/par2/.
const SLICE = 4096;
const sizes = { 'movie.mkv': 301_057, 'sample.mkv': 65_538, 'info.nfo': 333, 'subs.srt': 12_290 };

function makeSet(redundancy: number): { dir: string; originals: Map<string, Buffer>; set: Par2Set } {
  const dir = mkdtempSync(join(tmpdir(), 'spool-par2-'));
  const originals = new Map<string, Buffer>();
  for (const [name, size] of Object.entries(sizes)) {
    originals.set(name, randomBytes(size));
    writeFileSync(join(dir, name), originals.get(name)!);
  }
  execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, `-r${redundancy}`, 'release.par2', ...originals.keys()], {
    cwd: dir,
  });
  const volumes = readdirSync(dir)
    .filter((f) => f.endsWith('.par2'))
    .map((f) => readFileSync(join(dir, f)));
  return { dir, originals, set: readPar2Set(volumes) };
}

/** A reader of the set's input slices from `files`, with some slices gone and some corrupted. */
function reader(set: Par2Set, files: Map<string, Buffer>, gone: number[], corrupt: number[]): SliceReader {
  return async (i) => {
    if (gone.includes(i)) return null;
    const file = set.files.find((f) => i >= f.firstSlice && i < f.firstSlice + f.sliceCount)!;
    const at = (i - file.firstSlice) * set.sliceSize;
    const slice = Buffer.from(files.get(file.name)!.subarray(at, at + set.sliceSize));
    if (corrupt.includes(i)) slice[slice.length >> 1]! ^= 0xff;
    return slice;
  };
}

for (const redundancy of [5, 10]) {
  describe(`a set made by par2 create -r${redundancy}`, () => {
    const { dir, originals, set } = makeSet(redundancy);
    after(() => rmSync(dir, { recursive: true, force: true }));
    const total = set.checksums.length;
    const recovery = set.recovery.size;

    test('is read whole: files, checksums, recovery slices, creator', () => {
      assert.equal(set.sliceSize, SLICE);
      assert.deepEqual(new Set(set.files.map((f) => f.name)), new Set(Object.keys(sizes)));
      for (const f of set.files) assert.equal(f.length, sizes[f.name as keyof typeof sizes]);
      assert.equal(
        total,
        set.files.reduce((n, f) => n + Math.ceil(f.length / SLICE), 0),
      );
      assert.equal(
        recovery,
        Math.max(1, Math.round((total * redundancy) / 100)),
        'par2 made the recovery it was asked for',
      );
      assert.match(set.creator ?? '', /par2cmdline/);
      assert.equal(set.damagedPackets, 0);
    });

    test('missing and corrupt slices up to the recovery count are rebuilt byte-exact', async () => {
      // the first slice, a file's short last slice and slices of different files, half missing, half corrupt
      const nfo = set.files.find((f) => f.name === 'info.nfo')!;
      const picks = [...new Set([nfo.firstSlice, 0, total - 1, 40, 20, 60, 7, 33])]
        .filter((i) => i < total)
        .slice(0, recovery);
      const gone = picks.filter((_, n) => n % 2 === 0);
      const corrupt = picks.filter((_, n) => n % 2 === 1);
      const read = reader(set, originals, gone, corrupt);
      const damaged = await findDamagedSlices(set, read);
      assert.deepEqual(
        damaged,
        [...picks].sort((a, b) => a - b),
      );
      const rebuilt = await repairSlices(set, damaged, read);
      const intact = reader(set, originals, [], []);
      for (const i of damaged) {
        const want = (await intact(i))!;
        assert.ok(rebuilt.get(i)!.subarray(0, want.length).equals(want), `slice ${i}`);
        assert.ok(
          rebuilt
            .get(i)!
            .subarray(want.length)
            .every((b) => b === 0),
          `slice ${i} padding`,
        );
      }
    });

    test('one slice more than the recovery count is refused with the counts', async () => {
      const gone = Array.from({ length: recovery + 1 }, (_, n) => n * 2);
      const read = reader(set, originals, gone, []);
      await assert.rejects(
        repairSlices(set, await findDamagedSlices(set, read), read),
        (e: unknown) =>
          e instanceof Par2Error &&
          e.message === `cannot repair: ${recovery + 1} slices missing, ${recovery} recovery slices`,
      );
    });
  });
}
