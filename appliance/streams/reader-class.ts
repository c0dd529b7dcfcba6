import type { ReaderClass } from './streams.wire.js';

/** What the registry knows of one reader when it (re)classifies it; pure data. */
export interface ReaderFacts {
  userAgent?: string;
  /** The file's size. */
  size: number;
  /** The first byte asked for at open (a WebDAV range; 0 for a FUSE open). */
  openOffset: number;
  bytesServed: number;
  /** From open to now (or to close). */
  ageMs: number;
  closed: boolean;
  /** Distinct files the same client opened within SCAN_BURST_MS, this one included. */
  recentFilesOfClient: number;
}

export interface Classification {
  readerClass: ReaderClass;
  /** False: provisional, may change with the next reads. */
  settled: boolean;
}

/**
 * User agents of probing tools (ffprobe and libavformat's probes, MediaInfo, Plex's scanner), also as a FUSE
 * reader's process name, which the kernel cuts to 15 characters (`Plex Media Scan`).
 */
const SCANNER_AGENT = /ffprobe|mediainfo|plex media scan/i;
/** A scanner reads at most this much of a file (a head or a tail, an index). */
export const SCAN_BYTES = 8 * 1024 * 1024;
/** A reader still reading after this long is sustained: a player. */
export const SUSTAINED_MS = 10_000;
/** Opens of this many distinct files by one client within SCAN_BURST_MS make it a scanner. */
export const SCAN_BURST_FILES = 3;
export const SCAN_BURST_MS = 30_000;
/** A reader that has served this share of the file has read it whole. */
const WHOLE_SHARE = 0.9;
/** An open at or past this share of the file (or in its last SCAN_BYTES) is a tail read. */
const TAIL_SHARE = 0.9;

/**
 * Tells a player from a scanner by its access pattern (docs/streaming.md, "Reader classes"): provisional at open,
 * settled once the reader has read more than a scanner would, kept on past SUSTAINED_MS, or closed.
 */
export function classifyReader(f: ReaderFacts): Classification {
  if (f.userAgent && SCANNER_AGENT.test(f.userAgent)) return { readerClass: 'scanner', settled: true };
  const small = f.bytesServed <= SCAN_BYTES;
  if (!small) return { readerClass: 'player', settled: true };
  if (f.recentFilesOfClient >= SCAN_BURST_FILES) return { readerClass: 'scanner', settled: f.closed };
  // a small file read whole is played (or copied), not probed
  if (f.size > 0 && f.bytesServed >= f.size * WHOLE_SHARE) return { readerClass: 'player', settled: true };
  if (f.closed) return { readerClass: f.ageMs < SUSTAINED_MS ? 'scanner' : 'player', settled: true };
  if (f.ageMs >= SUSTAINED_MS && f.bytesServed > 0) return { readerClass: 'player', settled: true };
  return { readerClass: isTail(f) ? 'scanner' : 'player', settled: false };
}

function isTail(f: ReaderFacts): boolean {
  if (f.size <= 0 || f.openOffset <= 0) return false;
  return f.openOffset >= f.size * TAIL_SHARE || f.size - f.openOffset <= SCAN_BYTES;
}
