import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { ArchiveError } from './archive.types.js';
import { bufferSource } from './bytes.js';
import { KeyRing } from './crypto.js';
import { lzmaDecode } from './lzma.js';
import { scanSevenZip, SEVENZIP_SIGNATURE } from './sevenzip.js';

/** A 7z whose plain (unencoded) header is `header`, placed after `body` (7zFormat.txt's signature header). */
function sevenZip(body: Buffer, header: Buffer, opts: { offset?: bigint; size?: bigint } = {}): Buffer {
  const start = Buffer.alloc(32);
  SEVENZIP_SIGNATURE.copy(start);
  start[7] = 4;
  start.writeBigUInt64LE(opts.offset ?? BigInt(body.length), 12);
  start.writeBigUInt64LE(opts.size ?? BigInt(header.length), 20);
  start.writeUInt32LE(crc32(header), 28);
  start.writeUInt32LE(crc32(start.subarray(12, 32)), 8);
  return Buffer.concat([start, body, header]);
}

/** kHeader, one folder of one coder over `body`, one file named `name`. */
function header(coder: number[], size: number, name: string): Buffer {
  const nameBytes = Buffer.concat([Buffer.from(name, 'utf16le'), Buffer.alloc(2)]);
  const parts = [
    [0x01, 0x04], // Header, MainStreamsInfo
    [0x06, 0x00, 0x01, 0x09, size, 0x00], // PackInfo: pos 0, 1 stream, its size
    [0x07, 0x0b, 0x01, 0x00, 0x01, coder.length, ...coder, 0x0c, size, 0x00], // UnpackInfo: 1 folder, 1 coder
    [0x00], // end of streams info
    [0x05, 0x01, 0x11, nameBytes.length + 1, 0x00, ...nameBytes, 0x00], // FilesInfo: 1 file, its name
    [0x00], // end of header
  ];
  return Buffer.from(parts.flat());
}

describe('7z headers', () => {
  it('maps a stored (Copy) member to its bytes in the archive', async () => {
    const body = randomBytes(100);
    const archive = sevenZip(body, header([0x00], 100, 'Fïlm.mkv'));
    const [m] = await scanSevenZip(bufferSource(archive), 'x.7z');
    assert.equal(m!.name, 'Fïlm.mkv');
    assert.deepEqual(m!.extents, [{ volume: 0, offset: 32, length: 100 }]);
  });

  it('refuses compressed folders with ARCHIVE_COMPRESSED', async () => {
    const archive = sevenZip(randomBytes(50), header([0x03, 0x01, 0x01], 50, 'x.mkv'));
    await assert.rejects(
      scanSevenZip(bufferSource(archive), 'x.7z'),
      (e: Error) =>
        e instanceof ArchiveError && e.code === 'ARCHIVE_COMPRESSED' && /x\.mkv is packed with LZMA/.test(e.message),
    );
  });

  it('fails clearly on damage: CRCs, a header past the end (a piece missing), hostile sizes, names, LZMA garbage', async () => {
    const good = sevenZip(randomBytes(10), header([0x00], 10, 'a'));
    const bad = Buffer.from(good);
    bad[14]! ^= 1;
    await assert.rejects(scanSevenZip(bufferSource(bad), 'b.7z'), /start header fails its CRC/);
    const badHeader = Buffer.from(good);
    badHeader[good.length - 3]! ^= 1;
    await assert.rejects(scanSevenZip(bufferSource(badHeader), 'b.7z'), /header fails its CRC/);
    const far = sevenZip(randomBytes(10), header([0x00], 10, 'a'), { offset: 2n ** 62n });
    await assert.rejects(
      scanSevenZip(bufferSource(far), 'f.7z'),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_VOLUME_MISSING',
    );
    const escaping = sevenZip(randomBytes(10), header([0x00], 10, '../../x'));
    await assert.rejects(scanSevenZip(bufferSource(escaping), 'e.7z'), /outside itself/);
    const truncated = Buffer.concat([good.subarray(0, 32 + 10), header([0x00], 10, 'a').subarray(0, 8)]);
    await assert.rejects(scanSevenZip(bufferSource(truncated), 't.7z'), ArchiveError);
    for (let i = 0; i < 50; i++) {
      assert.throws(
        () => lzmaDecode(Buffer.from([0x5d, 0, 0, 1, 0]), Buffer.concat([Buffer.alloc(1), randomBytes(40)]), 1000),
        ArchiveError,
      );
    }
    assert.throws(() => lzmaDecode(Buffer.from([0x5d, 0, 0, 1, 0]), Buffer.alloc(10), 2 ** 40), /claims/);
  });
});

describe('7z with encrypted headers (7z -mhe), written by 7zz', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-7z-mhe-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const movie = randomBytes(30_000);
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'in', 'Hidden.mkv'), movie);
  execFileSync('7zz', ['a', '-bd', '-mx0', '-mhe=on', '-pheader pass', join(dir, 'x.7z'), '.'], {
    cwd: join(dir, 'in'),
    stdio: 'ignore',
  });
  const archive = readFileSync(join(dir, 'x.7z'));

  it('reads the header with the right password (tried after a wrong one) and lists the AES member', async () => {
    const keys = new KeyRing(['nope', 'header pass']);
    const [m] = await scanSevenZip(bufferSource(archive), 'x.7z', keys);
    assert.equal(m!.name, 'Hidden.mkv');
    assert.equal(m!.size, movie.length);
    assert.equal(m!.encryption?.scheme, '7z-aes256');
    assert.equal(keys.hasProven, true, 'the header proved the password for the members');
    const cipher = await keys.cipherFor(m!.encryption!, m!.name);
    const e = m!.extents[0]!;
    const d = createDecipheriv('aes-256-cbc', Buffer.from(cipher.key, 'hex'), Buffer.from(cipher.iv, 'hex'));
    const plain = d.setAutoPadding(false).update(archive.subarray(e.offset, e.offset + e.length));
    assert.deepEqual(plain.subarray(0, movie.length), movie);
  });

  it('reads an LZMA-packed encrypted header too (7-Zip packs it once it holds several files)', async () => {
    writeFileSync(join(dir, 'in', 'Hidden.nfo'), 'notes');
    execFileSync('7zz', ['a', '-bd', '-mx0', '-mhe=on', '-ptwo', join(dir, 'two.7z'), '.'], {
      cwd: join(dir, 'in'),
      stdio: 'ignore',
    });
    const two = readFileSync(join(dir, 'two.7z'));
    const found = await scanSevenZip(bufferSource(two), 'two.7z', new KeyRing(['two']));
    assert.deepEqual(found.map((m) => m.name).sort(), ['Hidden.mkv', 'Hidden.nfo']);
    await assert.rejects(scanSevenZip(bufferSource(two), 'two.7z', new KeyRing(['one'])), /wrong password/);
  });

  it('fails as damaged, before any password is tried, when the encrypted header sizes do not add up', async () => {
    const encoded = (unpackSize: number) =>
      Buffer.from([
        ...[0x17, 0x06, 0x00, 0x01, 0x09, 0x10, 0x00], // EncodedHeader, PackInfo: pos 0, 1 stream of 16 bytes
        ...[0x07, 0x0b, 0x01, 0x00, 0x01, 0x24, 0x06, 0xf1, 0x07, 0x01, 0x01, 0x13], // 1 folder: AES, 2^19 rounds
        ...[0x0c, unpackSize, 0x00, 0x00], // its output size
      ]);
    const tooBig = sevenZip(randomBytes(16), encoded(0x20));
    await assert.rejects(
      scanSevenZip(bufferSource(tooBig), 'big.7z', new KeyRing(['p'])),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_INVALID' && /16 bytes for 32/.test(e.message),
    );
  });

  it('fails with ARCHIVE_PASSWORD_MISSING without a password and ARCHIVE_PASSWORD_WRONG with wrong ones', async () => {
    await assert.rejects(
      scanSevenZip(bufferSource(archive), 'x.7z'),
      (e: Error) =>
        e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_MISSING' && /headers of x\.7z/.test(e.message),
    );
    await assert.rejects(
      scanSevenZip(bufferSource(archive), 'x.7z', new KeyRing(['a', 'b'])),
      (e: Error) => e instanceof ArchiveError && e.code === 'ARCHIVE_PASSWORD_WRONG',
    );
  });
});
