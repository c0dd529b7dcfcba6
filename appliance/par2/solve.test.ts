import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inputSlices, par2Set } from '../../tests/support/par2/set-writer.js';
import { Par2Error } from './errors.js';
import { readPar2Set } from './set.js';
import { findDamagedSlices, inputConstantLogs, invert, repairSlices } from './solve.js';

const files = [
  { name: 'a.mkv', data: randomBytes(10_001) },
  { name: 'b.nfo', data: randomBytes(7) },
  { name: 'c.srt', data: randomBytes(4_096) },
];
const SLICE = 1024;
const slices = inputSlices(files, SLICE); // 10 + 1 + 4 = 15
const { index, volume } = par2Set(files, SLICE, 4);
const set = readPar2Set([index, volume]);

const reader =
  (gone: number[], corrupt: number[] = []) =>
  async (i: number) => {
    if (gone.includes(i)) return null;
    const s = Buffer.from(slices[i]!);
    if (corrupt.includes(i)) s[17]! ^= 0x40;
    return s;
  };

test('input constants are 2^n for the n coprime to 65535, from n = 1', () => {
  assert.deepEqual(inputConstantLogs(12), [1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 22, 23]);
  const logs = inputConstantLogs(400);
  assert.ok(!logs.includes(255) && !logs.includes(257) && !logs.includes(289) && logs.includes(256));
});

test('finds missing and corrupt slices and rebuilds them byte-exact, up to the recovery count', async () => {
  assert.equal(set.checksums.length, 15);
  for (const [gone, corrupt] of [
    [[0], []],
    [[3, 10], [14]],
    [
      [0, 1],
      [10, 14],
    ],
  ] as const) {
    const read = reader([...gone], [...corrupt]);
    const damaged = await findDamagedSlices(set, read);
    assert.deepEqual(
      damaged,
      [...gone, ...corrupt].sort((a, b) => a - b),
    );
    const rebuilt = await repairSlices(set, damaged, read);
    for (const i of damaged) assert.ok(rebuilt.get(i)!.equals(slices[i]!), `slice ${i}`);
  }
});

test('more damage than recovery slices is refused with the counts', async () => {
  const read = reader([0, 1, 2, 3, 4]);
  await assert.rejects(
    repairSlices(set, await findDamagedSlices(set, read), read),
    (e: unknown) =>
      e instanceof Par2Error && e.kind === 'unrepairable' && /5 slices missing, 4 recovery slices/.test(e.message),
  );
});

test('a surviving slice that lies makes the rebuilt slice fail its checksum, not a silent wrong answer', async () => {
  const honest = reader([2]);
  const lying = async (i: number) => (i === 5 ? randomBytes(SLICE) : honest(i));
  await assert.rejects(
    repairSlices(set, [2], lying),
    (e: unknown) => e instanceof Par2Error && /rebuilt slice 2/.test(e.message),
  );
});

test('a singular matrix is refused', () => {
  assert.throws(
    () =>
      invert([
        [1, 2],
        [1, 2],
      ]),
    (e: unknown) => e instanceof Par2Error && e.kind === 'unrepairable',
  );
  assert.deepEqual(
    invert([
      [1, 0],
      [0, 1],
    ]),
    [
      [1, 0],
      [0, 1],
    ],
  );
});

test('a surviving slice read longer than the slice size is refused, not written past the scratch', async () => {
  const honest = reader([2]);
  const long = async (i: number) => (i === 5 ? Buffer.alloc(SLICE + 4) : honest(i));
  await assert.rejects(repairSlices(set, [2], long), (e: unknown) => e instanceof Par2Error && e.kind === 'malformed');
});
