import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { locateRecoverySlices } from '../../../appliance/par2/locate.js';
import { readPar2Set } from '../../../appliance/par2/set.js';
import { repairSlicesStreaming } from '../../../appliance/par2/stream-solve.js';

// A set made by Debian's par2 (par2cmdline), repaired in strips from byte ranges: the index volume read whole, the
// recovery volumes only by range (their packets found from headers), the input files by range.
const SLICE = 16_384;
const dir = mkdtempSync(join(tmpdir(), 'spool-par2-stream-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const originals = new Map(
  Object.entries({ 'movie.mkv': 1_500_003, 'sample.mkv': 65_540, 'info.nfo': 333 }).map(([n, size]) => [
    n,
    randomBytes(size),
  ]),
);
for (const [name, data] of originals) writeFileSync(join(dir, name), data);
execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, '-r10', 'release.par2', ...originals.keys()], { cwd: dir });
const header = readPar2Set([readFileSync(join(dir, 'release.par2'))]);
const volumes = readdirSync(dir)
  .filter((f) => /\.vol\d+\+\d+\.par2$/.test(f))
  .map((f) => readFileSync(join(dir, f)));

test('slices of par2 create volumes are found by header and rebuilt in strips byte-exact', async () => {
  assert.equal(header.recovery.size, 0, 'the index volume carries no recovery slices');
  const where = new Map<number, { volume: Buffer; dataOffset: number }>();
  for (const volume of volumes)
    for (const at of await locateRecoverySlices(
      async (o, l) => volume.subarray(o, o + l),
      volume.length,
      header.setId,
      SLICE,
    ))
      where.set(at.exponent, { volume, dataOffset: at.dataOffset });
  const whole = readPar2Set([readFileSync(join(dir, 'release.par2')), ...volumes]);
  assert.deepEqual([...where.keys()].sort(), [...whole.recovery.keys()].sort());

  const total = header.checksums.length;
  const nfo = header.files.find((f) => f.name === 'info.nfo')!;
  const missing = [...new Set([0, 5, 6, nfo.firstSlice, total - 1, 50])].sort((a, b) => a - b);
  const sliceOf = (i: number) => {
    const f = header.files.find((x) => i >= x.firstSlice && i < x.firstSlice + x.sliceCount)!;
    const at = (i - f.firstSlice) * SLICE;
    return originals.get(f.name)!.subarray(at, at + SLICE);
  };
  const rebuilt = new Map(missing.map((i) => [i, Buffer.alloc(SLICE, 0xee)]));
  await repairSlicesStreaming(
    header,
    [...where.keys()],
    missing,
    {
      readInput: async (i, o, l) => (missing.includes(i) ? null : sliceOf(i).subarray(o, o + l)),
      readRecovery: async (e, o, l) => {
        const r = where.get(e)!;
        return r.volume.subarray(r.dataOffset + o, r.dataOffset + o + l);
      },
    },
    (i, o, bytes) => void rebuilt.get(i)!.set(bytes, o),
    { memoryBytes: 5000 * (missing.length + 4), batch: 2 }, // 5000-byte strips: four passes, the last short
  );
  for (const i of missing) {
    const want = Buffer.alloc(SLICE);
    want.set(sliceOf(i));
    assert.ok(rebuilt.get(i)!.equals(want), `slice ${i}`);
  }
});
