import { PLAY_RUN_BYTES } from '../vfs/read-pattern.js';
import type { ReaderClass } from './streams.wire.js';

export { PLAY_RUN_BYTES };

/**
 * How one open has read so far (the read handle keeps it, appliance/vfs/read-pattern.ts): the sequential run it
 * is in and the jumps between runs. Only this open's reads: never what other files the same address, user agent
 * or pid opened.
 */
export interface ReadPatternFacts {
  /** Bytes served in the current sequential run (since the last jump). */
  runBytes: number;
  /** The longest sequential run so far, the current one included. */
  longestRun: number;
  /** Reads that did not continue from where the last one ended (seeks: to the index, the tail, back). */
  jumps: number;
}

/** What the registry knows of one open when it (re)classifies it; pure data. */
export interface ReaderFacts extends ReadPatternFacts {
  /** A user agent, or a FUSE reader's process name (the hint, when one is given). */
  userAgent?: string;
  /** The file's size. */
  size: number;
  bytesServed: number;
  /** From open to now (or to close). */
  ageMs: number;
  closed: boolean;
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
/** This many jumps with no run of PLAY_RUN_BYTES between them is a probe hopping through a file. */
export const PROBE_JUMPS = 3;
/** A reader that has served this share of the file has read it whole. */
const WHOLE_SHARE = 0.9;

/**
 * Tells a player from a scanner by what this open does (docs/streaming.md, "Reader classes"): provisional at
 * open, settled once it has read more than a scanner would, kept on past SUSTAINED_MS, or closed.
 */
export function classifyReader(f: ReaderFacts): Classification {
  if (f.userAgent && SCANNER_AGENT.test(f.userAgent)) return { readerClass: 'scanner', settled: true };
  if (f.bytesServed > SCAN_BYTES) return { readerClass: 'player', settled: true };
  // a small file read whole is played (or copied), not probed
  if (f.size > 0 && f.bytesServed >= f.size * WHOLE_SHARE) return { readerClass: 'player', settled: true };
  if (f.closed) return { readerClass: f.ageMs < SUSTAINED_MS ? 'scanner' : 'player', settled: true };
  if (f.ageMs >= SUSTAINED_MS && f.bytesServed > 0) return { readerClass: 'player', settled: true };
  return { readerClass: probing(f) ? 'scanner' : 'player', settled: false };
}

/**
 * Provisional: an open that hops from place to place in short reads is probing. Reading in the tail is not enough,
 * within an open or as a range request of its own: a player reads its index there too, right before it plays, and
 * that read must not wait behind a scan (ten viewers' index requests share one fetch).
 */
function probing(f: ReaderFacts): boolean {
  return f.runBytes < PLAY_RUN_BYTES && f.jumps >= PROBE_JUMPS && f.longestRun < PLAY_RUN_BYTES;
}
