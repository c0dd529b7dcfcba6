/**
 * Real media containers for the contention bench's library scan: MP4 files as ffmpeg writes them (ftyp, mdat,
 * then the moov index at the end), each grown to `mb` MiB by a `free` box of random bytes between the media and
 * the index, so a probe reads the head (ftyp, the first packets) and the tail (moov) of a file whose middle it
 * never needs, as in a real library. The media: `seconds` of lavfi testsrc (720p, MPEG-4 part 2) with a sine tone
 * (AAC), made once with ffmpeg. Posted to the local INN once (40 files of 16 MiB by default), the list cached next
 * to its spool and reused while INN has them.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NntpConnection } from '../../appliance/nntp/connection.js';
import type { PostedFile } from '../../tests/support/inn/poster.js';
import type { InnServer } from '../../tests/support/inn/server.js';

const MIB = 2 ** 20;

/** An MP4 of `seconds` made by ffmpeg (moov at the end, its default). */
export function ffmpegMp4(seconds: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-bench-media-'));
  try {
    const out = path.join(dir, 'base.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=1280x720:rate=24`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
      ...['-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'aac', '-shortest', out],
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The top-level boxes of an MP4 (32-bit sizes only: ffmpeg's output of a short clip). */
function boxes(mp4: Buffer): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [];
  for (let at = 0; at + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(at);
    if (size < 8) throw new Error(`unexpected MP4 box size ${size} at ${at}`);
    out.push({ type: mp4.toString('latin1', at + 4, at + 8), start: at, end: at + size });
    at += size;
  }
  return out;
}

/** `mp4` grown to `bytes` by a `free` box of random bytes right before its trailing moov. */
export function padMp4(mp4: Buffer, bytes: number): Buffer {
  const moov = boxes(mp4).at(-1);
  if (!moov || moov.type !== 'moov') throw new Error('the MP4 does not end with its moov box');
  const pad = bytes - mp4.length;
  if (pad < 8 || pad >= 2 ** 32) throw new Error(`cannot pad ${mp4.length} bytes to ${bytes}`);
  const free = randomBytes(pad);
  free.writeUInt32BE(pad, 0);
  free.write('free', 4, 'latin1');
  return Buffer.concat([mp4.subarray(0, moov.start), free, mp4.subarray(moov.start)]);
}

/** `count` MP4s of `mb` MiB on the local INN, each its own file of one NZB (posted once, then reused). */
export async function scanLibrary(
  inn: InnServer,
  log: (m: string) => void,
  count = 40,
  mb = 16,
): Promise<PostedFile[]> {
  const cache = path.join(inn.root, `bench-contention-scan-${count}x${mb}mb.json`);
  if (existsSync(cache)) {
    const files = JSON.parse(readFileSync(cache, 'utf8')) as PostedFile[];
    if (await stillThere(inn, files)) return files;
  }
  log(`making ${count} MP4 files of ${mb} MiB with ffmpeg and posting them to INN (once; cached in ${cache})`);
  const media = ffmpegMp4(20);
  const files: PostedFile[] = [];
  for (let i = 0; i < count; i++) {
    const name = `Library.Film.${String(i + 1).padStart(2, '0')}.2026.720p.mp4`;
    files.push(await inn.postFile(name, padMp4(media, mb * MIB), { articleSize: 768_000, connections: 4 }));
  }
  writeFileSync(cache, JSON.stringify(files));
  return files;
}

async function stillThere(inn: InnServer, files: PostedFile[]): Promise<boolean> {
  const conn = await NntpConnection.open({ ...inn, tls: false, insecureTls: false });
  try {
    for (const f of [files[0]!, files.at(-1)!]) {
      await conn.stat(`<${f.messageIds[0]}>`);
      await conn.stat(`<${f.messageIds.at(-1)}>`);
    }
    return true;
  } catch {
    return false;
  } finally {
    await conn.quit();
  }
}
