import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { par2Set } from '../../tests/support/par2/set-writer.js';
import { mulberry32 } from '../../tests/support/seeded-random.js';
import { scanRecoverySlices, type VolumeRangeReader } from './locate.js';
import { readPar2Set } from './set.js';

// Recovery slices in damaged volumes (docs/par2.md): the scan skips unreadable articles, resyncs on the packet
// magic and uses only packets whose MD5 holds, as par2cmdline does with a damaged file.
const SLICE = 4096;
const files = [
  { name: 'a.mkv', data: randomBytes(60_001) },
  { name: 'b.srt', data: randomBytes(9_000) },
];
const { index, volume } = par2Set(files, SLICE, 12); // 12 recovery packets of 4,164 bytes, no other packets
const header = readPar2Set([index]);
const whole = readPar2Set([index, volume]);
const PACKET = 64 + 4 + SLICE;
const ARTICLE = 10_000; // the volume "posted" in articles of 10,000 bytes

const pieceOf = (offset: number) => {
  const start = Math.floor(offset / ARTICLE) * ARTICLE;
  return { start, end: start + ARTICLE };
};

/** Reads `bytes` with the articles `gone` unreadable (null, as the pool answers a 430 everywhere), counting reads. */
function reader(bytes: Buffer, gone: number[] = [], counts = { reads: 0, failed: 0 }): VolumeRangeReader {
  return async (offset, length) => {
    counts.reads++;
    const end = Math.min(bytes.length, offset + length);
    for (let a = Math.floor(offset / ARTICLE); a * ARTICLE < end; a++)
      if (gone.includes(a)) {
        counts.failed++;
        return null;
      }
    return bytes.subarray(offset, end);
  };
}

/** The exponents of the packets that no article in `gone` touches. */
function intactExponents(gone: number[]): number[] {
  const out: number[] = [];
  for (let p = 0; p * PACKET < volume.length; p++) {
    const first = Math.floor((p * PACKET) / ARTICLE);
    const last = Math.floor(((p + 1) * PACKET - 1) / ARTICLE);
    if (!gone.some((a) => a >= first && a <= last)) out.push(volume.readUInt32LE(p * PACKET + 64));
  }
  return out;
}

function assertTrue(found: { exponent: number; dataOffset: number }[], bytes: Buffer) {
  for (const s of found)
    assert.ok(
      bytes.subarray(s.dataOffset, s.dataOffset + SLICE).equals(whole.recovery.get(s.exponent)!),
      `slice ${s.exponent} is the true recovery slice`,
    );
}

test('a whole volume: every recovery slice found, none lost', async () => {
  const scan = await scanRecoverySlices(reader(volume), volume.length, header.setId, SLICE, { pieceOf });
  assert.deepEqual(
    scan.slices.map((s) => s.exponent),
    [...whole.recovery.keys()],
  );
  assert.equal(scan.lost, 0);
  assert.equal(scan.unreadableBytes, 0);
  assertTrue(scan.slices, volume);
});

test('missing articles lose only the packets they touch; every intact packet around them is used', async () => {
  for (const gone of [[0], [1], [2, 3], [0, 4], [1, 2, 3, 4]]) {
    const counts = { reads: 0, failed: 0 };
    const scan = await scanRecoverySlices(reader(volume, gone, counts), volume.length, header.setId, SLICE, {
      pieceOf,
    });
    const expected = intactExponents(gone);
    assert.deepEqual(
      scan.slices.map((s) => s.exponent),
      expected,
      `articles ${gone} gone`,
    );
    assertTrue(scan.slices, volume);
    assert.ok(scan.lost >= 12 - expected.length, `lost ${scan.lost} with ${expected.length} of 12 found`);
    assert.ok(scan.lost <= 12 - expected.length + gone.length, `lost ${scan.lost} is not inflated`);
    const goneBytes = gone.reduce((n, a) => n + Math.min(ARTICLE, volume.length - a * ARTICLE), 0);
    assert.equal(scan.unreadableBytes, goneBytes);
  }
});

test('a packet with a flipped byte fails its MD5 and is skipped; the rest are used', async () => {
  const damaged = Buffer.from(volume);
  damaged[3 * PACKET + 500]! ^= 1; // inside packet 3's slice data
  const scan = await scanRecoverySlices(reader(damaged), damaged.length, header.setId, SLICE, { pieceOf });
  assert.equal(scan.slices.length, 11);
  assert.ok(!scan.slices.some((s) => s.exponent === 3));
  assert.equal(scan.lost, 1);
  assert.match(scan.skipped.join('\n'), /MD5 does not match/);
  assertTrue(scan.slices, damaged);
});

test('hostile headers (a length past the end, a wrong slice size, garbage between packets) are skipped, never trusted', async () => {
  const hostile = Buffer.concat([
    randomBytes(333),
    volume.subarray(0, 2 * PACKET),
    randomBytes(77),
    volume.subarray(2 * PACKET),
  ]);
  hostile.writeBigUInt64LE(2n ** 40n, 333 + 8); // packet 0 claims a terabyte
  const scan = await scanRecoverySlices(reader(hostile), hostile.length, header.setId, SLICE, { pieceOf });
  assert.deepEqual(
    scan.slices.map((s) => s.exponent),
    [...whole.recovery.keys()].filter((e) => e !== 0),
  );
  assertTrue(scan.slices, hostile);
  assert.match(scan.skipped.join('\n'), /claims 1099511627776 bytes/);
  const small = await scanRecoverySlices(reader(volume), volume.length, header.setId, 2048);
  assert.deepEqual(small.slices, [], 'a set of other slice sizes: nothing used');
  const other = await scanRecoverySlices(reader(volume), volume.length, 'ff'.repeat(16), SLICE);
  assert.deepEqual(other.slices, [], 'another set: nothing used');
});

test('random damage and holes never crash the scan and never yield a slice that is not the true one', async () => {
  const random = mulberry32(2026);
  for (let round = 0; round < 300; round++) {
    const bytes = Buffer.from(volume);
    for (let i = 0, n = Math.floor(random() * 6); i < n; i++)
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    const gone = [0, 1, 2, 3, 4].filter(() => random() < 0.2);
    const cut = random() < 0.3 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes;
    const scan = await scanRecoverySlices(reader(cut, gone), cut.length, header.setId, SLICE, { pieceOf });
    assertTrue(scan.slices, cut);
  }
});

test('an outage is not evidence: a read that throws ends the scan with that error', async () => {
  const failing: VolumeRangeReader = async (offset) => {
    if (offset > ARTICLE) throw new Error('provider unreachable');
    return volume.subarray(offset, offset + 68);
  };
  await assert.rejects(scanRecoverySlices(failing, volume.length, header.setId, SLICE, { pieceOf }), /unreachable/);
});
