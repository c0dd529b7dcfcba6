/**
 * A paced player over WebDAV, as a media server's transcoder or rclone's mount reads for one viewer (contention
 * bench, "ten viewers of one media server"): the container header (`Range: bytes=0-`, dropped after `header`
 * bytes) and the index (the last `index` bytes) when the plan says so, then one open-ended GET from `from` read at
 * `rate` bytes a second. Same rules as bench/lib/paced-player.ts (the FUSE one):
 *
 * - start: from the first request until the header, the index and `startBytes` past `from` are buffered;
 * - it keeps at most `maxBuffer` bytes ahead of the play position (the response is paused while the buffer is full);
 * - a stall: the play position reached the bytes read; play resumes once `rebuffer` bytes are buffered again;
 * - it stops after playing `playBytes` and drops the connection.
 *
 * In this process (non-blocking sockets), checked every TICK_MS.
 */
import http from 'node:http';
import type { PacedPlan, PacedResult } from './paced-player.js';

const TICK_MS = 20;

/** Reads `length` bytes from `offset` with an open-ended range, then drops the connection. */
function readPrefix(url: string, headers: http.OutgoingHttpHeaders, offset: number, length: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { ...headers, Range: `bytes=${offset}-` } }, (res) => {
      if (res.statusCode !== 206) reject(new Error(`GET ${url} at ${offset}: ${res.statusCode}`));
      let got = 0;
      res.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= length) {
          req.destroy();
          resolve();
        }
      });
      res.on('end', () => (got >= length ? resolve() : reject(new Error(`short read at ${offset}: ${got}`))));
      res.on('error', (err) => (got >= length ? resolve() : reject(err)));
    });
    req.on('error', reject);
  });
}

export async function playOverWebdav(url: string, userAgent: string, p: PacedPlan): Promise<PacedResult> {
  const headers = { 'User-Agent': userAgent };
  const t0 = performance.now();
  const marks: NonNullable<PacedResult['marks']> = {};
  if (p.header) await readPrefix(url, headers, 0, p.header);
  marks.header = performance.now() - t0;
  if (p.index) await readPrefix(url, headers, p.size - p.index, p.index);
  marks.index = performance.now() - t0;
  return new Promise((resolve, reject) => {
    let have = 0; // bytes read from `from`
    let pos = 0; // the play position
    let startMs = -1;
    let last = 0;
    let playing = false;
    let dryAt = 0;
    const stalls: number[] = [];
    const stallsAt: number[] = [];
    const advance = (now: number) => {
      if (startMs < 0) {
        if (have < p.startBytes) return;
        startMs = now - t0;
        playing = true;
        last = now;
      }
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
    const req = http.get(url, { headers: { ...headers, Range: `bytes=${p.from}-` } }, (res) => {
      if (res.statusCode !== 206) return fail(new Error(`GET ${url} from ${p.from}: ${res.statusCode}`));
      marks.headers = performance.now() - t0;
      res.on('data', (d: Buffer) => {
        marks.firstByte ??= performance.now() - t0;
        advance(performance.now());
        have += d.length;
        advance(performance.now());
        if (have - pos >= p.maxBuffer || have >= p.playBytes) res.pause();
      });
      res.on('end', () => fail(new Error(`end of file at ${p.from + have}`)));
      res.on('error', (err) => fail(err));
      tick = setInterval(() => {
        const now = performance.now();
        advance(now);
        if (startMs >= 0 && pos >= p.playBytes) return finish(now);
        if (res.isPaused() && have - pos < p.maxBuffer && have < p.playBytes) res.resume();
      }, TICK_MS);
    });
    let tick: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (now: number) => {
      if (done) return;
      done = true;
      clearInterval(tick);
      req.destroy();
      resolve({
        startMs,
        stalls,
        stallsAt,
        totalMs: now - t0,
        readBytes: have,
        marks,
        startedAt: performance.timeOrigin + t0,
      });
    };
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      clearInterval(tick);
      req.destroy();
      reject(err);
    };
    req.on('error', fail);
  });
}
