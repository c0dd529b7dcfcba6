/**
 * A paced player over the FUSE mount, in a process of its own (a read blocked on a mount must never block the
 * bench): argv <file> <plan JSON>. It reads the container header and the index when the plan says so, then reads
 * on sequentially from `from` in 1 MiB preads while it plays at `rate` bytes a second (contention bench):
 *
 * - start: from open until the header, the index and `startBytes` past `from` are buffered; play begins then;
 * - it keeps at most `maxBuffer` bytes ahead of the play position (sleeping while the buffer is full), as players
 *   bound their cache;
 * - a stall: the play position reached the bytes read; play resumes once `rebuffer` bytes are buffered again (a
 *   player's rebuffering), and the stall lasts from running dry to resuming;
 * - it stops after playing `playBytes`.
 *
 * Prints one JSON line of PacedResult.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface PacedPlan {
  /** The file's size (for the index read at its end). */
  size: number;
  header?: number;
  index?: number;
  from: number;
  rate: number;
  startBytes: number;
  playBytes: number;
  maxBuffer: number;
  rebuffer: number;
}

export interface PacedResult {
  startMs: number;
  /** Each stall's length in ms, and when it began (ms from open). */
  stalls: number[];
  stallsAt: number[];
  /** From open to the last byte played. */
  totalMs: number;
  /** Bytes read from `from` on (what was delivered to the player). */
  readBytes: number;
  /** ms from open: header read, index read, first byte of the play (the HTTP player; where a start-up's time went). */
  marks?: { header?: number; index?: number; firstByte?: number; headers?: number };
  /** ms from open at which each read of the start-up (after the header and index) returned (the FUSE player). */
  startReads?: number[];
  /** When it began (ms since the epoch), to line its marks up with a server's trace. */
  startedAt?: number;
}

const sleep = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms: number) => Atomics.wait(sleep, 0, 0, Math.max(1, Math.ceil(ms)));

function play(file: string, p: PacedPlan): PacedResult {
  const buf = Buffer.allocUnsafe(1 << 20);
  const startedAt = Date.now();
  const t0 = performance.now();
  const fd = openSync(file, 'r');
  const readAt = (offset: number, length: number): number => {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, length - done), offset + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  };
  const marks: NonNullable<PacedResult['marks']> = {};
  const startReads: number[] = [];
  const since = () => performance.now() - t0;
  try {
    if (p.header) {
      readAt(0, p.header);
      marks.header = since();
    }
    if (p.index) {
      readAt(p.size - p.index, p.index);
      marks.index = since();
    }
    let have = 0; // bytes read from `from`
    while (have < p.startBytes) {
      const n = readAt(p.from + have, buf.length);
      if (n === 0) throw new Error(`end of file at ${p.from + have}`);
      have += n;
      startReads.push(Math.round(since()));
      if (marks.firstByte === undefined) marks.firstByte = startReads[0];
    }
    const startMs = since();
    // the play position, and the clock it moves by
    let pos = 0;
    let last = performance.now();
    let playing = true;
    let dryAt = 0;
    const stalls: number[] = [];
    const stallsAt: number[] = [];
    const advance = (now: number) => {
      if (playing) {
        pos += (p.rate * (now - last)) / 1000;
        if (pos >= have) {
          dryAt = now - ((pos - have) / p.rate) * 1000;
          pos = have;
          playing = false;
        }
      } else if (have - pos >= Math.min(p.rebuffer, p.playBytes - pos)) {
        playing = true;
        stalls.push(now - dryAt);
        stallsAt.push(dryAt - t0);
      }
      last = now;
    };
    while (pos < p.playBytes) {
      advance(performance.now());
      if (have - pos >= p.maxBuffer || have >= p.playBytes) {
        // buffer full (or everything read): sleep until the buffer has room again (or play reaches the end)
        const room = have >= p.playBytes ? p.playBytes - pos : have - pos - p.maxBuffer + buf.length;
        pause(Math.min(200, (room / p.rate) * 1000));
        continue;
      }
      const n = readAt(p.from + have, buf.length);
      if (n === 0) throw new Error(`end of file at ${p.from + have}`);
      advance(performance.now()); // the read's wait, with the bytes not there yet
      have += n;
      advance(performance.now()); // a stalled player may resume with them
    }
    const totalMs = performance.now() - t0;
    return { startMs, stalls, stallsAt, totalMs, readBytes: have, marks, startReads, startedAt };
  } finally {
    closeSync(fd);
  }
}

if (process.argv[1] === import.meta.filename) {
  const [file, planJson] = process.argv.slice(2) as [string, string];
  console.log(JSON.stringify(play(file, JSON.parse(planJson) as PacedPlan)));
}
