import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inputSlices, par2Set } from '../../tests/support/par2/set-writer.js';
import { Par2Error } from './errors.js';
import { locateRecoverySlices } from './locate.js';
import { readPar2Set } from './set.js';
import { repairSlicesStreaming, stripBytes, type StripSource } from './stream-solve.js';

const files = [
  { name: 'a.mkv', data: randomBytes(100_001) },
  { name: 'b.nfo', data: randomBytes(7) },
  { name: 'c.srt', data: randomBytes(40_960) },
];
const SLICE = 8192;
const slices = inputSlices(files, SLICE); // 13 + 1 + 5 = 19, the last of each file short
const { index, volume } = par2Set(files, SLICE, 6);
const header = readPar2Set([index]); // no recovery packets: the slices are read in ranges from the volume

/** Strips of the set's input slices (short at each file's end) and of the volume's recovery slices, counted. */
function source(locations: Map<number, number>, gone: number[] = [], counts = { bytes: 0 }): StripSource {
  return {
    readInput: async (i, offset, length) => {
      if (gone.includes(i)) return null;
      const bytes = slicesShort[i]!.subarray(offset, offset + length);
      counts.bytes += bytes.length;
      return bytes;
    },
    readRecovery: async (e, offset, length) => {
      const at = locations.get(e);
      return at === undefined ? null : volume.subarray(at + offset, at + offset + length);
    },
  };
}

/** Each input slice as its file holds it: the last one of a file short, not padded. */
const slicesShort = files.flatMap((f) =>
  Array.from({ length: Math.ceil(f.data.length / SLICE) }, (_, n) => f.data.subarray(n * SLICE, (n + 1) * SLICE)),
);

async function locations(): Promise<Map<number, number>> {
  const found = await locateRecoverySlices(
    async (offset, length) => volume.subarray(offset, offset + length),
    volume.length,
    header.setId,
    SLICE,
  );
  return new Map(found.map((l) => [l.exponent, l.dataOffset]));
}

test('the recovery slices are found from packet headers alone, at the offsets of their data', async () => {
  const at = await locations();
  const whole = readPar2Set([index, volume]);
  assert.deepEqual([...at.keys()].sort(), [...whole.recovery.keys()].sort());
  for (const [e, offset] of at) assert.ok(volume.subarray(offset, offset + SLICE).equals(whole.recovery.get(e)!));
});

test('rebuilds missing slices byte-exact for any strip size and batch, reading each input byte once', async () => {
  const at = await locations();
  for (const [missing, memoryBytes, batch] of [
    [[0], undefined, undefined],
    [[3, 13, 18], 3 * 4096, 1], // strips of the 4 KiB minimum: two passes
    [[0, 1, 12, 13, 14, 18], 12 * 6000, 3], // 12 strips of 6000 bytes: two passes, the second short
    [[5, 6], 7 * 1024 * 4, 2],
  ] as const) {
    const counts = { bytes: 0 };
    const got = new Map<number, Buffer>();
    await repairSlicesStreaming(
      header,
      [...at.keys()],
      missing,
      source(at, [...missing], counts),
      (i, offset, bytes) => {
        const slice = got.get(i) ?? Buffer.alloc(SLICE);
        assert.equal(offset % 4, 0);
        slice.set(bytes, offset);
        got.set(i, slice);
      },
      { memoryBytes, batch },
    );
    assert.deepEqual([...got.keys()], [...missing]);
    for (const i of missing) assert.ok(got.get(i)!.equals(slices[i]!), `slice ${i}`);
    const survivors = slicesShort.reduce((n, s, i) => n + (missing.includes(i as never) ? 0 : s.length), 0);
    assert.equal(counts.bytes, survivors, 'each surviving input byte read once');
  }
});

test('the strip size fits the memory budget and the slice', () => {
  assert.equal(stripBytes(2 ** 20, 10, { memoryBytes: 2 ** 30 }), 2 ** 20);
  assert.equal(stripBytes(2 ** 21, 100, { memoryBytes: 64 * 2 ** 20, batch: 8 }), 578_524);
  assert.equal(stripBytes(2 ** 21, 100_000, { memoryBytes: 2 ** 20 }), 4096);
  assert.equal(stripBytes(2 ** 21, 1) % 4, 0);
});

test('too few recovery slices, an unreadable source or a bad recovery slice is a Par2Error', async () => {
  const at = await locations();
  const sink = () => undefined;
  await assert.rejects(
    repairSlicesStreaming(header, [...at.keys()], [0, 1, 2, 3, 4, 5, 6], source(at, [0]), sink),
    (e: unknown) =>
      e instanceof Par2Error && e.kind === 'unrepairable' && /7 slices missing, 6 recovery/.test(e.message),
  );
  for (const bad of [[1, 1], [-1], [19], [0.5]])
    await assert.rejects(repairSlicesStreaming(header, [...at.keys()], bad, source(at, bad), sink), RangeError);
  await assert.rejects(
    repairSlicesStreaming(header, [...at.keys()], [0], source(at, [0, 4]), sink),
    (e: unknown) => e instanceof Par2Error && /input slice 4 became unreadable/.test(e.message),
  );
  const flipped: StripSource = {
    ...source(at, [2]),
    readRecovery: async (e, offset, length) => {
      const bytes = Buffer.from(volume.subarray(at.get(e)! + offset, at.get(e)! + offset + length));
      bytes[0]! ^= 1;
      return bytes;
    },
  };
  await assert.rejects(
    repairSlicesStreaming(header, [...at.keys()], [2], flipped, sink),
    (e: unknown) => e instanceof Par2Error && /rebuilt slice 2 does not match/.test(e.message),
  );
});
