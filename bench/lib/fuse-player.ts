/**
 * The player over the FUSE mount, in a process of its own (a read blocked on a mount must never block the bench):
 * argv <file> <plan JSON>; opens the file, preads each step's bytes in 1 MiB calls (as a player's buffered reads
 * are), closes; prints one JSON line of PlayTiming (bench/lib/player.ts).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { PlayStep, PlayTiming } from './player.js';

const [file, planJson] = process.argv.slice(2) as [string, string];
const plan = JSON.parse(planJson) as PlayStep[];
const buf = Buffer.allocUnsafe(1 << 20);
const t0 = performance.now();
const fd = openSync(file, 'r');
const steps: number[] = [];
for (const step of plan) {
  const t = performance.now();
  let done = 0;
  while (done < step.length) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, step.length - done), step.offset + done);
    if (n === 0) throw new Error(`${step.name}: end of file after ${done} bytes`);
    done += n;
  }
  steps.push(performance.now() - t);
}
closeSync(fd);
const timing: PlayTiming = { steps, totalMs: performance.now() - t0 };
console.log(JSON.stringify(timing));
