import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  fileHeader,
  mainHeader,
  endHeader,
  RAR5_SIG,
  writeRar5,
  vint,
  rar5Block,
} from '../../tests/support/archive/rar5-writer.js';
import { materialize, readSparse, type WrittenVolume } from '../../tests/support/archive/volumes.js';
import { ArchiveError, type ArchiveMember, type ByteSource } from './archive.types.js';
import { bufferSource } from './bytes.js';
import { assembleMembers } from './members.js';
import { scanRar5Volume } from './rar5.js';
import { KeyRing } from './crypto.js';

const sparseSource = (v: WrittenVolume): ByteSource => ({ size: v.size, read: async (o, l) => readSparse(v, o, l) });

async function members(vols: WrittenVolume[]): Promise<ArchiveMember[]> {
  const scans = await Promise.all(vols.map((v) => scanRar5Volume(sparseSource(v), v.name)));
  return assembleMembers(
    scans,
    vols.map((v) => v.name),
  );
}

/** The member's bytes, read back through its extents from the volumes. */
function extract(vols: WrittenVolume[], m: ArchiveMember): Buffer {
  return Buffer.concat(m.extents.map((e) => materialize(vols[e.volume]!).subarray(e.offset, e.offset + e.length)));
}

describe('RAR5 store volumes', () => {
  it('finds several members of one volume, Unicode names included', async () => {
    const a = randomBytes(50_000);
    const b = randomBytes(10);
    const vols = writeRar5([
      { name: 'Fïlm 日本.mkv', data: a },
      { name: 'Subs/en.srt', data: b },
      { name: 'empty.txt', data: Buffer.alloc(0) },
    ]);
    const found = await members(vols);
    assert.deepEqual(
      found.map((m) => [m.name, m.size]),
      [
        ['Fïlm 日本.mkv', 50_000],
        ['Subs/en.srt', 10],
        ['empty.txt', 0],
      ],
    );
    assert.deepEqual(extract(vols, found[0]!), a);
    assert.deepEqual(extract(vols, found[1]!), b);
  });

  it('joins split members across volumes; a small member between two split ones stays whole', async () => {
    const big1 = randomBytes(70_000);
    const small = randomBytes(300);
    const big2 = randomBytes(55_000);
    const vols = writeRar5(
      [
        { name: 'one.mkv', data: big1 },
        { name: 'sample.mkv', data: small },
        { name: 'two.mkv', data: big2 },
      ],
      { volumeSize: 20_000 },
    );
    assert.ok(vols.length >= 7, `${vols.length} volumes`);
    const found = await members(vols);
    assert.deepEqual(
      found.map((m) => m.name),
      ['one.mkv', 'sample.mkv', 'two.mkv'],
    );
    assert.deepEqual(extract(vols, found[0]!), big1);
    assert.deepEqual(extract(vols, found[1]!), small);
    assert.deepEqual(extract(vols, found[2]!), big2);
    assert.ok(found[0]!.extents.length >= 4);
  });

  it('reads 64-bit sizes (a 5 GiB member over two sparse volumes) with header reads only', async () => {
    const size = 5 * 1024 ** 3 + 7;
    const vols = writeRar5([{ name: 'huge.mkv', data: { size } }], { volumeSize: 3 * 1024 ** 3 });
    assert.equal(vols.length, 2);
    const reads: number[] = [];
    const scans = await Promise.all(
      vols.map((v) =>
        scanRar5Volume(
          {
            size: v.size,
            read: async (o, l) => {
              reads.push(l);
              return readSparse(v, o, l);
            },
          },
          v.name,
        ),
      ),
    );
    const [m] = assembleMembers(scans, ['a', 'b']);
    assert.equal(m!.size, size);
    assert.equal(
      m!.extents.reduce((s, e) => s + e.length, 0),
      size,
    );
    assert.ok(Math.max(...reads) < 4096, 'only headers were read');
  });

  it('fails clearly on damage: bad CRC, truncation, huge sizes, missing or misplaced volumes, compression, ../', async () => {
    const vols = writeRar5([{ name: 'f.mkv', data: randomBytes(50_000) }], { volumeSize: 20_000 });
    const v0 = materialize(vols[0]!);
    const bad = Buffer.from(v0);
    bad[RAR5_SIG.length + 5]! ^= 0xff;
    await assert.rejects(scanRar5Volume(bufferSource(bad), 'x.part1.rar'), /fails its CRC check/);
    await assert.rejects(scanRar5Volume(bufferSource(v0.subarray(0, 30)), 'x.part1.rar'), /truncated/);
    const huge = Buffer.concat([
      RAR5_SIG,
      mainHeader(0, false),
      rar5Block(Buffer.concat([vint(2), vint(2), vint(2 ** 62)])),
    ]);
    await assert.rejects(scanRar5Volume(bufferSource(huge), 'h.rar'), /claims|2\^6/);
    const hugeVint = Buffer.concat([
      RAR5_SIG,
      mainHeader(0, false),
      rar5Block(Buffer.concat([vint(2), vint(2), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])])),
    ]);
    await assert.rejects(
      scanRar5Volume(bufferSource(hugeVint), 'h.rar'),
      (e: Error) => e instanceof ArchiveError && /number field/.test(e.message),
    );
    // a volume missing from the middle, or the last one
    const scans = await Promise.all(vols.map((v) => scanRar5Volume(sparseSource(v), v.name)));
    const names = vols.map((v) => v.name);
    assert.throws(
      () => assembleMembers([scans[0]!, scans[2]!], [names[0]!, names[2]!]),
      /volume 2 of the archive is not in the NZB/,
    );
    assert.throws(() => assembleMembers(scans.slice(0, 2), names.slice(0, 2)), /continues past the last volume/);
    assert.throws(
      () => assembleMembers([scans[1]!, scans[0]!, scans[2]!], names),
      /volume 1 of the archive is not in the NZB/,
    );
    // compressed, and a name escaping the job
    const packed = writeRar5([{ name: 'f.mkv', data: randomBytes(100) }], { method: 3 });
    await assert.rejects(
      members(packed),
      (e: Error) =>
        e instanceof ArchiveError &&
        e.code === 'ARCHIVE_COMPRESSED' &&
        /^compressed archive: cannot be streamed/.test(e.message),
    );
    const escaping = writeRar5([{ name: '../../etc/passwd', data: randomBytes(10) }]);
    await assert.rejects(members(escaping), /outside itself/);
    // no end block
    const cut = Buffer.concat([
      RAR5_SIG,
      mainHeader(0, false),
      fileHeader({ name: 'a', unpackedSize: 3, dataSize: 3 }),
      Buffer.from('abc'),
    ]);
    await assert.rejects(scanRar5Volume(bufferSource(cut), 'c.rar'), /without an end-of-archive header/);
    assert.ok(endHeader(false).length < 16);
  });
});

describe('RAR5 header encryption (rar -hp)', () => {
  it('reads the headers with the right password, and names the missing or wrong one', async () => {
    const data = randomBytes(40_000);
    const vols = writeRar5([{ name: 'hidden.mkv', data }], {
      volumeSize: 15_000,
      password: 'pw',
      kdfLog2: 8,
      encryptHeaders: true,
    });
    const scan = (keys?: KeyRing) => Promise.all(vols.map((v) => scanRar5Volume(sparseSource(v), v.name, keys)));
    const scans = await scan(new KeyRing(['nope', 'pw']));
    const [m] = assembleMembers(
      scans,
      vols.map((v) => v.name),
    );
    assert.equal(m!.name, 'hidden.mkv');
    assert.equal(m!.encryption?.scheme, 'rar5-aes256');
    await assert.rejects(scan(), (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_MISSING');
    await assert.rejects(
      scan(new KeyRing(['nope'])),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_WRONG',
    );
  });
});
