import { createHash, randomBytes, randomInt } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileIdOf, par2Packet } from '../../tests/support/nzb/par2-writer.js';
import { checksumBody, mainBody, par2Set, SET_ID } from '../../tests/support/par2/set-writer.js';
import { Par2Error, type Par2ErrorKind } from './errors.js';
import { scanPackets } from './packets.js';
import { MAX_PAR2_SET_BYTES, MAX_PAR2_SLICES, readPar2Set } from './set.js';

const file = { name: 'movie.mkv', data: randomBytes(5_000) };
const { index, volume } = par2Set([file], 1024, 2);

const isPar2Error = (kind: Par2ErrorKind, pattern: RegExp) => (e: unknown) =>
  e instanceof Par2Error && e.kind === kind && pattern.test(e.message);

/** Rewrites a packet's MD5 after it was edited, so the checks past the MD5 are reached. */
function rehash(packet: Buffer): Buffer {
  createHash('md5').update(packet.subarray(32)).digest().copy(packet, 16);
  return packet;
}

test('reads every packet of a set and its parts', () => {
  const set = readPar2Set([index, volume]);
  assert.equal(set.sliceSize, 1024);
  assert.equal(set.files.length, 1);
  assert.equal(set.files[0]!.name, 'movie.mkv');
  assert.equal(set.files[0]!.sliceCount, 5);
  assert.equal(set.checksums.length, 5);
  assert.deepEqual([...set.recovery.keys()], [0, 1]);
  assert.equal(set.creator, 'Spool tests');
  assert.equal(set.damagedPackets, 0);
});

test('header faults are typed errors naming the fault', () => {
  const bad = (edit: (b: Buffer) => void) => {
    const copy = Buffer.from(index);
    edit(copy);
    return copy;
  };
  assert.throws(
    () => scanPackets(bad((b) => b.write('PAR3', 0))),
    isPar2Error('malformed', /no PAR2 packet magic at byte 0/),
  );
  assert.throws(
    () => scanPackets(bad((b) => b.writeBigUInt64LE(130n, 8))),
    isPar2Error('malformed', /not a multiple of 4/),
  );
  assert.throws(
    () => scanPackets(bad((b) => b.writeBigUInt64LE(32n, 8))),
    isPar2Error('malformed', /shorter than its 64-byte header/),
  );
  assert.throws(
    () => scanPackets(bad((b) => b.writeBigUInt64LE(2n ** 60n, 8))),
    isPar2Error('malformed', /past the end/),
  );
  assert.throws(
    () => scanPackets(index.subarray(0, index.length - 8)),
    isPar2Error('malformed', /past the end|truncated/),
  );
  assert.throws(
    () => scanPackets(Buffer.concat([index, Buffer.alloc(10)])),
    isPar2Error('malformed', /truncated packet/),
  );
});

test('a packet whose MD5 does not match is skipped and counted', () => {
  const copy = Buffer.from(volume);
  copy[100]! ^= 1; // inside the first recovery slice
  const set = readPar2Set([index, copy]);
  assert.equal(set.damagedPackets, 1);
  assert.deepEqual([...set.recovery.keys()], [1]);
});

test('slice sizes that are zero, not a multiple of 4 or absurd are refused', () => {
  const withMain = (sliceSize: number) =>
    Buffer.concat([
      par2Packet('PAR 2.0\0Main', mainBody(sliceSize, [fileIdOf(file)]), SET_ID),
      index.subarray(index.readUInt32LE(8)),
    ]);
  assert.throws(() => readPar2Set([withMain(0)]), isPar2Error('malformed', /slice size 0/));
  assert.throws(() => readPar2Set([withMain(1022)]), isPar2Error('malformed', /slice size 1022/));
  assert.throws(() => readPar2Set([withMain(2 ** 31)]), isPar2Error('limit', /slice size 2147483648/));
});

test('a set claiming terabytes or too many slices is refused before any work', () => {
  const claim = (length: bigint, sliceSize: number) => {
    const id = Buffer.alloc(16, 9);
    const desc = Buffer.alloc(56 + 4);
    id.copy(desc, 0);
    desc.writeBigUInt64LE(length, 48);
    return readPar2Set([
      Buffer.concat([
        par2Packet('PAR 2.0\0Main', mainBody(sliceSize, [id]), SET_ID),
        par2Packet('PAR 2.0\0FileDesc', desc, SET_ID),
      ]),
    ]);
  };
  assert.throws(() => claim(BigInt(MAX_PAR2_SET_BYTES) + 1n, 4096), isPar2Error('limit', /bytes/));
  assert.throws(() => claim(2n ** 63n, 4096), isPar2Error('limit', /bytes/));
  assert.throws(() => claim(BigInt((MAX_PAR2_SLICES + 1) * 4), 4), isPar2Error('limit', /more than 32768 slices/));
});

test('packets of another recovery set are refused', () => {
  const other = par2Packet('PAR 2.0\0IFSC', checksumBody(file, 1024), Buffer.alloc(16, 8));
  assert.throws(() => readPar2Set([index, other]), isPar2Error('mismatch', /belongs to set 0808/));
});

test('bodies too short or inconsistent for their type are refused', () => {
  const main = par2Packet('PAR 2.0\0Main', mainBody(1024, [fileIdOf(file)]), SET_ID);
  assert.throws(
    () => readPar2Set([Buffer.concat([main, par2Packet('PAR 2.0\0FileDesc', Buffer.alloc(20), SET_ID)])]),
    isPar2Error('malformed', /under 56/),
  );
  assert.throws(() => readPar2Set([main]), isPar2Error('malformed', /no intact description/));
  assert.throws(() => readPar2Set([volume]), isPar2Error('malformed', /no intact main packet/));
  const shortSlice = par2Packet('PAR 2.0\0RecvSlic', Buffer.alloc(4 + 512), SET_ID);
  assert.throws(() => readPar2Set([index, shortSlice]), isPar2Error('mismatch', /recovery slice of 512 bytes/));
});

test('random mutations of real packets give a set or a Par2Error, nothing else', () => {
  const whole = Buffer.concat([index, volume]);
  for (let round = 0; round < 400; round++) {
    let bytes = Buffer.from(whole);
    const at = randomInt(bytes.length);
    switch (round % 4) {
      case 0:
        bytes = bytes.subarray(0, at);
        break;
      case 1:
        bytes.writeBigUInt64LE(randomBytes(8).readBigUInt64LE(), Math.min(at & ~3, bytes.length - 8));
        break;
      case 2:
        randomBytes(1 + randomInt(8)).copy(bytes, at);
        break;
      default: {
        // edit a body byte and fix the packet's MD5 so the semantic checks see it
        const packets = scanPackets(whole).packets;
        const p = packets[round % packets.length]!;
        const offset = p.offset + 64 + randomInt(Math.min(p.body.length, 64));
        bytes[offset] = randomInt(256);
        const length = Number(bytes.readBigUInt64LE(p.offset + 8));
        rehash(bytes.subarray(p.offset, p.offset + length));
      }
    }
    try {
      readPar2Set([bytes]);
    } catch (e) {
      assert.ok(e instanceof Par2Error, `round ${round}: ${String(e)}`);
    }
  }
});
