import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  fileDescPacket,
  fileIdOf,
  par2Index,
  par2Packet,
  unicodeNamePacket,
} from '../../tests/support/nzb/par2-writer.js';
import { matchPar2Description, md5First16k, parsePar2 } from './par2.js';

const hex = (data: Buffer) => createHash('md5').update(data).digest('hex');
const movie = { name: 'The.Real.Name.2024.1080p.mkv', data: randomBytes(50_000) };
const sub = { name: 'The.Real.Name.2024.1080p.srt', data: randomBytes(3_000) };

describe('parsePar2', () => {
  it('reads main and file description packets built from the published format', () => {
    const index = parsePar2(par2Index([movie, sub]));
    assert.equal(index.sliceSize, 4096);
    assert.deepEqual(index.recoveryFileIds, [fileIdOf(movie).toString('hex'), fileIdOf(sub).toString('hex')]);
    assert.equal(index.damagedPackets, 0);
    const byName = new Map(index.files.map((f) => [f.name, f]));
    const m = byName.get(movie.name)!;
    assert.equal(m.length, 50_000);
    assert.equal(m.md5, hex(movie.data));
    assert.equal(m.md5First16k, hex(movie.data.subarray(0, 16384)));
    assert.equal(byName.get(sub.name)!.md5First16k, hex(sub.data), 'short files hash whole');
  });

  it('skips damaged packets, garbage between packets and a truncated tail', () => {
    const good = fileDescPacket(movie);
    const damaged = fileDescPacket(sub);
    damaged[damaged.length - 5] = damaged[damaged.length - 5]! ^ 0xff; // name byte flipped: MD5 no longer matches
    const truncated = fileDescPacket({ name: 'cut.bin', data: Buffer.alloc(10) }).subarray(0, 70);
    const index = parsePar2(Buffer.concat([randomBytes(33), good, Buffer.from('junk'), damaged, truncated]));
    assert.deepEqual(
      index.files.map((f) => f.name),
      [movie.name],
    );
    assert.equal(index.damagedPackets, 1);
    assert.deepEqual(parsePar2(randomBytes(10_000)).files, []);
    assert.deepEqual(parsePar2(Buffer.alloc(0)).files, []);
  });

  it('refuses a header claiming an absurd length without reading past the buffer', () => {
    const packet = par2Packet('PAR 2.0\0FileDesc', Buffer.alloc(60));
    packet.writeBigUInt64LE(2n ** 62n, 8);
    assert.deepEqual(parsePar2(packet).files, []);
  });

  it('prefers the Unicode filename packet', () => {
    const data = Buffer.concat([fileDescPacket(movie), unicodeNamePacket(movie, 'Le.Vrai.Nom.été.mkv')]);
    assert.equal(parsePar2(data).files[0]!.name, 'Le.Vrai.Nom.été.mkv');
  });

  it('matches a file by the MD5 of its first 16 KiB, using the size to break ties', () => {
    const twin = { name: 'twin.mkv', data: Buffer.concat([movie.data.subarray(0, 16384), randomBytes(100)]) };
    const files = parsePar2(par2Index([movie, sub, twin])).files;
    assert.equal(matchPar2Description(files, movie.data.subarray(0, 16384), 50_000)?.name, movie.name);
    assert.equal(matchPar2Description(files, twin.data.subarray(0, 16384), twin.data.length)?.name, 'twin.mkv');
    assert.equal(matchPar2Description(files, movie.data.subarray(0, 16384)), null, 'ambiguous without a size');
    assert.equal(matchPar2Description(files, sub.data, sub.data.length)?.name, sub.name);
    assert.equal(matchPar2Description(files, sub.data.subarray(0, 100)), null);
    assert.equal(matchPar2Description(files, randomBytes(16384)), null);
    assert.equal(md5First16k(movie.data), hex(movie.data.subarray(0, 16384)));
  });

  it('reads a real .par2 index made by Debian par2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-par2-'));
    try {
      writeFileSync(join(dir, movie.name), movie.data);
      writeFileSync(join(dir, sub.name), sub.data);
      execFileSync('par2', ['create', '-q', '-q', '-r5', '-n1', 'set.par2', movie.name, sub.name], { cwd: dir });
      const index = parsePar2(readFileSync(join(dir, 'set.par2')));
      assert.equal(index.damagedPackets, 0);
      assert.equal(index.recoveryFileIds.length, 2);
      const byName = new Map(index.files.map((f) => [f.name, f]));
      assert.equal(byName.get(movie.name)?.md5, hex(movie.data));
      assert.equal(byName.get(movie.name)?.length, movie.data.length);
      assert.equal(
        matchPar2Description(index.files, movie.data.subarray(0, 16384), movie.data.length)?.name,
        movie.name,
      );
      assert.equal(byName.get(sub.name)?.md5First16k, hex(sub.data));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
