import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { rar4Block, rar4FileHeader, rar4Main, RAR4_SIG, writeRar4 } from '../../tests/support/archive/rar4-writer.js';
import { materialize, readSparse, type WrittenVolume } from '../../tests/support/archive/volumes.js';
import { ArchiveError, type ArchiveMember, type ByteSource } from './archive.types.js';
import { bufferSource } from './bytes.js';
import { assembleMembers } from './members.js';
import { scanRar4Volume } from './rar4.js';
import { decodeRar4Name } from './rar4-name.js';

const source = (v: WrittenVolume): ByteSource => ({ size: v.size, read: async (o, l) => readSparse(v, o, l) });
const extract = (vols: WrittenVolume[], m: ArchiveMember) =>
  Buffer.concat(m.extents.map((e) => materialize(vols[e.volume]!).subarray(e.offset, e.offset + e.length)));

async function members(vols: WrittenVolume[], readEnd = false): Promise<ArchiveMember[]> {
  const scans = await Promise.all(vols.map((v) => scanRar4Volume(source(v), v.name, readEnd)));
  return assembleMembers(
    scans,
    vols.map((v) => v.name),
  );
}

describe('RAR 4 store volumes', () => {
  it('reads both naming schemes, split members and a small one between them, Unicode names', async () => {
    const big = randomBytes(60_000);
    const small = randomBytes(200);
    const other = randomBytes(30_000);
    for (const scheme of ['part', 'old'] as const) {
      const vols = writeRar4(
        [
          { name: 'Fïlm 日本.mkv', data: big },
          { name: 'proof.jpg', data: small },
          { name: 'other.mkv', data: other },
        ],
        { volumeSize: 15_000, scheme, base: 'x' },
      );
      const found = await members(vols);
      assert.deepEqual(
        found.map((m) => m.name),
        ['Fïlm 日本.mkv', 'proof.jpg', 'other.mkv'],
      );
      assert.deepEqual(extract(vols, found[0]!), big);
      assert.deepEqual(extract(vols, found[1]!), small);
      assert.deepEqual(extract(vols, found[2]!), other);
    }
  });

  it('gets volume numbers from the end blocks when asked (obfuscated names)', async () => {
    const vols = writeRar4([{ name: 'a.mkv', data: randomBytes(40_000) }], { volumeSize: 15_000 });
    const scans = await Promise.all(vols.map((v) => scanRar4Volume(source(v), v.name, true)));
    assert.deepEqual(
      scans.map((s) => s.volumeNumber),
      vols.map((_, i) => i),
    );
  });

  it('reads 64-bit sizes (LHD_LARGE) from headers alone', async () => {
    const size = 4 * 1024 ** 3 + 5;
    const vols = writeRar4([{ name: 'huge.mkv', data: { size } }]);
    const [m] = await members(vols);
    assert.equal(m!.size, size);
  });

  it('fails clearly: bad CRC, truncation, compression, header encryption, names leaving the archive', async () => {
    const v = materialize(writeRar4([{ name: 'f.mkv', data: randomBytes(1000) }])[0]!);
    const bad = Buffer.from(v);
    bad[7 + 13 + 9]! ^= 1;
    await assert.rejects(scanRar4Volume(bufferSource(bad), 'f.rar'), /fails its CRC check/);
    await assert.rejects(scanRar4Volume(bufferSource(v.subarray(0, 25)), 'f.rar'), /truncated/);
    const packed = writeRar4([{ name: 'f.mkv', data: randomBytes(100) }], { method: 0x33 });
    await assert.rejects(members(packed), (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_COMPRESSED');
    const hp = Buffer.concat([RAR4_SIG, rar4Block(0x73, 0x80, Buffer.alloc(6))]);
    await assert.rejects(scanRar4Volume(bufferSource(hp), 'hp.rar'), /encrypted headers/);
    await assert.rejects(members(writeRar4([{ name: '..\\..\\boot.ini', data: randomBytes(3) }])), /outside itself/);
    const claims = Buffer.concat([
      RAR4_SIG,
      rar4Main(true, false, false),
      rar4FileHeader({ name: 'x', unpackedSize: 2 ** 40, dataSize: 2 ** 40, crc: 0 }),
    ]);
    await assert.rejects(scanRar4Volume(bufferSource(claims), 'c.rar'), /claims 1099511627776 bytes of data/);
  });
});

describe('decodeRar4Name', () => {
  it('decodes every opcode of the compact Unicode form, and UTF-8 names', () => {
    const field = (name8: string, enc: number[]) =>
      Buffer.concat([Buffer.from(name8, 'latin1'), Buffer.from([0, ...enc])]);
    assert.equal(decodeRar4Name(field('abc?e', [0x04, 0xd0, 0x01, 0x31, 0x65]), true), 'abcбe');
    assert.equal(decodeRar4Name(field('\x30\x31', [0x04, 0xc0, 0x80, 0x00]), true), 'аб');
    assert.equal(decodeRar4Name(field('?', [0x00, 0x80, 0xe5, 0x65]), true), '日');
    assert.equal(decodeRar4Name(Buffer.from('日本.mkv'), true), '日本.mkv');
    assert.equal(decodeRar4Name(Buffer.from([0x41, 0xe9]), false), 'Aé');
    assert.equal(decodeRar4Name(field('ab', [0x00, 0xff]), true), '', 'a truncated encoding stops, never overruns');
  });
});
