import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Containers the media tests make: Matroska, MP4 with moov first ("fast start") or after the media data. */
export type MediaKind = 'mkv' | 'mp4-faststart' | 'mp4-tail';

const EXT: Record<MediaKind, string> = { mkv: 'mkv', 'mp4-faststart': 'mp4', 'mp4-tail': 'mp4' };

/**
 * A real media file written by ffmpeg (Debian `ffmpeg`, scripts/system-deps.mjs): a tiny test pattern and a tone of
 * `seconds`; `fps` and `size` raise the bytes (a bigger mdat puts a tail moov past the first article).
 */
export function makeMedia(kind: MediaKind, seconds: number, o: { fps?: number; size?: string } = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'spool-media-'));
  try {
    const out = join(dir, `out.${EXT[kind]}`);
    const video = `testsrc=size=${o.size ?? '32x24'}:rate=${o.fps ?? 5}`;
    const flags = kind === 'mp4-faststart' ? ['-movflags', '+faststart'] : [];
    execFileSync(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', video, '-t', String(seconds)].concat([
        '-c:v',
        'mpeg4',
        '-q:v',
        o.size ? '2' : '31',
        ...flags,
        out,
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** ffprobe's reading of a file's duration in seconds (the independent reader the parser is checked against). */
export function ffprobeDuration(bytes: Buffer, kind: MediaKind): number {
  const dir = mkdtempSync(join(tmpdir(), 'spool-media-'));
  try {
    const file = join(dir, `in.${EXT[kind]}`);
    writeFileSync(file, bytes);
    const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
    return Number(out.toString().trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
