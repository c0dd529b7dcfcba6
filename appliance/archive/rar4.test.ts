import assert from 'node:assert/strict';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, it } from 'node:test';
import { rar3Key, rar4FileHeader, rar4Main, RAR4_SIG, writeRar4 } from '../../tests/support/archive/rar4-writer.js';
import { KeyRing, type CipherCheck } from './crypto.js';
import { rar3KeyIv } from './rar3-key.js';
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

  it('fails clearly: bad CRC, truncation, compression, names leaving the archive', async () => {
    const v = materialize(writeRar4([{ name: 'f.mkv', data: randomBytes(1000) }])[0]!);
    const bad = Buffer.from(v);
    bad[7 + 13 + 9]! ^= 1;
    await assert.rejects(scanRar4Volume(bufferSource(bad), 'f.rar'), /fails its CRC check/);
    await assert.rejects(scanRar4Volume(bufferSource(v.subarray(0, 25)), 'f.rar'), /truncated/);
    const packed = writeRar4([{ name: 'f.mkv', data: randomBytes(100) }], { method: 0x33 });
    await assert.rejects(members(packed), (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_COMPRESSED');
    await assert.rejects(members(writeRar4([{ name: '..\\..\\boot.ini', data: randomBytes(3) }])), /outside itself/);
    const claims = Buffer.concat([
      RAR4_SIG,
      rar4Main(true, false, false),
      rar4FileHeader({ name: 'x', unpackedSize: 2 ** 40, dataSize: 2 ** 40, crc: 0 }),
    ]);
    await assert.rejects(scanRar4Volume(bufferSource(claims), 'c.rar'), /claims 1099511627776 bytes of data/);
  });
});

describe('RAR 3 AES-128', () => {
  const decrypt = (key: string, iv: string, stored: Buffer, size: number) =>
    createDecipheriv('aes-128-cbc', Buffer.from(key, 'hex'), Buffer.from(iv, 'hex'))
      .setAutoPadding(false)
      .update(stored)
      .subarray(0, size);

  it('derives the key RAR 3 itself used (a stored file RAR encrypted with "test", from John the Ripper vectors)', async () => {
    const { key, iv } = await rar3KeyIv('test', 'c47c5bef0bbd1e98');
    const stored = Buffer.from(
      'c5e987f81d316d9dcfdb6a1b27105ce63fca2c594da5aa2f6fdf2f65f50f0d66314f8a09da875ae19d6c15636b65c815',
      'hex',
    );
    assert.equal(crc32(decrypt(key.toString('hex'), iv.toString('hex'), stored, 47)), 0x53145f96);
  });

  it('agrees with the test writer for short and long passwords (29+ characters reach the SHA-1 quirk)', async () => {
    const salt = randomBytes(8);
    for (const pw of ['pässword', 'x'.repeat(29), 'a rather long passphrase, ünïcode too 12', 'y'.repeat(200)]) {
      const ours = await rar3KeyIv(pw, salt.toString('hex'));
      const writer = rar3Key(pw.slice(0, 127), salt);
      assert.deepEqual([ours.key, ours.iv], [writer.key, writer.iv], pw);
    }
  });

  it('reads encrypted members across volumes and decrypts them with the key ring', async () => {
    const movie = randomBytes(40_003);
    const vols = writeRar4([{ name: 'Sealed.mkv', data: movie }], { volumeSize: 15_000, password: 'pw3' });
    const [m] = await members(vols);
    assert.equal(m!.encryption?.scheme, 'rar3-aes128');
    assert.equal(m!.crc, crc32(movie));
    const proves: CipherCheck = async (c) => crc32(decrypt(c.key, c.iv, extract(vols, m!), m!.size)) === m!.crc;
    const cipher = await new KeyRing(['wrong', 'pw3']).cipherFor(m!.encryption!, m!.name, proves);
    assert.equal(cipher.algorithm, 'aes-128-cbc');
    assert.deepEqual(decrypt(cipher.key, cipher.iv, extract(vols, m!), m!.size), movie);
    await assert.rejects(
      new KeyRing(['wrong']).cipherFor(m!.encryption!, m!.name, proves),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_WRONG',
    );
    await assert.rejects(
      new KeyRing([]).cipherFor(m!.encryption!, m!.name, proves),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_MISSING',
    );
  });

  it('reads encrypted headers (-hp) with the right password, proven by each header CRC; fails clearly otherwise', async () => {
    const movie = randomBytes(30_001);
    const vols = writeRar4([{ name: 'Hidden.mkv', data: movie }], {
      volumeSize: 12_000,
      base: 'hp',
      password: 'hp3',
      encryptHeaders: true,
    });
    assert.ok(vols.length >= 3);
    const first = materialize(vols[0]!);
    assert.equal(first.includes(Buffer.from('Hidden.mkv')), false, 'names are not in the clear');
    const keys = new KeyRing(['nope', 'hp3']);
    const scans = await Promise.all(vols.map((v) => scanRar4Volume(source(v), v.name, true, keys)));
    assert.deepEqual(
      scans.map((s) => s.volumeNumber),
      vols.map((_, i) => i),
    );
    const [m] = assembleMembers(
      scans,
      vols.map((v) => v.name),
    );
    assert.equal(m!.name, 'Hidden.mkv');
    const cipher = await keys.cipherFor(m!.encryption!, m!.name);
    assert.deepEqual(decrypt(cipher.key, cipher.iv, extract(vols, m!), m!.size), movie);
    await assert.rejects(
      scanRar4Volume(source(vols[0]!), vols[0]!.name),
      (e: Error) =>
        e instanceof ArchiveError &&
        e.code === 'ARCHIVE_PASSWORD_MISSING' &&
        /the headers of hp\.part1\.rar are/.test(e.message),
    );
    await assert.rejects(
      scanRar4Volume(source(vols[0]!), vols[0]!.name, false, new KeyRing(['a', 'b'])),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_WRONG',
    );
    const cut = Buffer.from(first.subarray(0, 7 + 13 + 8 + 10));
    await assert.rejects(scanRar4Volume(bufferSource(cut), 'cut.rar', false, keys), /truncated/);
  });

  it('refuses RAR 2.x encryption (version below 29) as unsupported', async () => {
    const h = rar4FileHeader({ name: 'old.mkv', unpackedSize: 16, dataSize: 16, crc: 0, extraFlags: 0x4 });
    const old = Buffer.from(h);
    old[7 + 17] = 20; // version needed: RAR 2.0
    old.writeUInt16LE(crc32(old.subarray(2)) & 0xffff, 0);
    const v = Buffer.concat([RAR4_SIG, rar4Main(true, false, false), old, Buffer.alloc(16)]);
    await assert.rejects(
      scanRar4Volume(bufferSource(v), 'old.rar'),
      (e: Error) =>
        e instanceof ArchiveError && e.code === 'ARCHIVE_UNSUPPORTED' && /RAR 2\.x encryption/.test(e.message),
    );
  });
});

describe('KeyRing without a check value', () => {
  it('takes the password the member proves, prefers a proven one, and takes the first when nothing can tell', async () => {
    const enc = { scheme: '7z-aes256' as const, salt: '', iv: '00'.repeat(16), kdfLog2: 4 };
    const ring = new KeyRing(['a', 'b', 'c']);
    const tried: string[] = [];
    const keyOf = new Map<string, string>();
    for (const p of ['a', 'b', 'c']) keyOf.set((await new KeyRing([p]).cipherFor(enc, 'x')).key, p);
    const onlyB: CipherCheck = async (c) => {
      tried.push(keyOf.get(c.key)!);
      return keyOf.get(c.key) === 'b';
    };
    assert.equal(keyOf.get((await ring.cipherFor(enc, 'x', onlyB)).key), 'b');
    assert.deepEqual(tried, ['a', 'b']);
    assert.equal(ring.hasProven, true);
    const unknown: CipherCheck = async () => undefined;
    assert.equal(keyOf.get((await ring.cipherFor(enc, 'y', unknown)).key), 'b', 'the proven password wins');
    assert.equal(keyOf.get((await new KeyRing(['a', 'b']).cipherFor(enc, 'z', unknown)).key), 'a');
    const never: CipherCheck = async () => false;
    await assert.rejects(new KeyRing(['a', 'b']).cipherFor(enc, 'z', never), /wrong password .* \(tried 2 passwords\)/);
  });
});

describe('KeyRing limits', () => {
  it('refuses an archive that needs a key derivation per header by the hundred (a CPU trap)', async () => {
    const ring = new KeyRing(['p']);
    const enc = (i: number) => ({
      scheme: '7z-aes256' as const,
      salt: i.toString(16).padStart(4, '0'),
      iv: '',
      kdfLog2: 0,
    });
    for (let i = 0; i < 512; i++) await ring.cipherFor(enc(i), `m${i}`);
    await ring.cipherFor(enc(7), 'a salt seen before costs nothing');
    await assert.rejects(
      ring.cipherFor(enc(512), 'm512'),
      (e: Error) =>
        e instanceof ArchiveError && e.code === 'ARCHIVE_INVALID' && /more than 512 key derivations/.test(e.message),
    );
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
