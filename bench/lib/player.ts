/**
 * What a media player reads when it starts a file (issue 15 playback bench): the container header at the start,
 * the index near the end (Matroska Cues, an MP4 moov at the end), then the point the user starts from. Played
 * over WebDAV as players do it over HTTP (an open-ended range per position, the connection dropped once it has
 * what it needs) or over the FUSE mount (bench/lib/fuse-player.ts: open, pread, close in a process of its own).
 */
import http from 'node:http';

export interface PlayStep {
  name: string;
  offset: number;
  length: number;
}

/** Header, index and middle reads of a file of `size` bytes; sizes from env (docs/performance.md). */
export function playPlan(size: number, sizes: { header: number; index: number; middle: number }): PlayStep[] {
  return [
    { name: 'header', offset: 0, length: sizes.header },
    { name: 'index', offset: size - sizes.index, length: sizes.index },
    { name: 'middle', offset: Math.floor(size / 2), length: sizes.middle },
  ];
}

/** ms per step and in all, from the first request to the last byte needed. */
export interface PlayTiming {
  steps: number[];
  totalMs: number;
}

/** Plays the plan over HTTP: `Range: bytes=<offset>-`, read `length` bytes, drop the connection. */
export async function playOverHttp(url: string, plan: PlayStep[], timeoutMs = 60_000): Promise<PlayTiming> {
  const t0 = performance.now();
  const steps: number[] = [];
  for (const step of plan) {
    const t = performance.now();
    await readPrefix(url, step, timeoutMs);
    steps.push(performance.now() - t);
  }
  return { steps, totalMs: performance.now() - t0 };
}

function readPrefix(url: string, step: PlayStep, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Range: `bytes=${step.offset}-` }, agent: false }, (res) => {
      if (res.statusCode !== 206) {
        req.destroy();
        return reject(new Error(`GET ${url} bytes=${step.offset}- answered ${res.statusCode}`));
      }
      let got = 0;
      res.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= step.length) {
          req.destroy();
          resolve();
        }
      });
      res.on('end', () => (got >= step.length ? resolve() : reject(new Error(`${step.name}: only ${got} bytes`))));
      res.on('error', (e) => (got >= step.length ? resolve() : reject(e)));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${step.name} read timed out`)));
    req.on('error', reject);
  });
}
