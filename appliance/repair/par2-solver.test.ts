import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { locateRecoverySlices } from '../par2/locate.js';
import { readPar2Set, type Par2Set } from '../par2/set.js';
import { repairSlices } from '../par2/solve.js';
import { solveStreaming } from './par2-solver.js';

// The server's streaming solve on a set made by Debian's `par2 create` (docs/health.md "PAR2 repair"): its
// multiply-adds run in a worker thread, so the event loop keeps turning while the in-memory solve on the main
// thread (the old repair) blocks it for the whole computation. Both run here, on the same set, and are compared.
const SLICE = 256 * 1024;
const SIZE = 96 * 2 ** 20;
const MISSING = 64;
let dir: string;
let bytes: Buffer;
let set: Par2Set;
let volumes: { data: Buffer; at: Map<number, number> }[];
const missing = Array.from({ length: MISSING }, (_, n) => 10 + n * 5);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-par2-solver-'));
  bytes = randomBytes(SIZE);
  writeFileSync(join(dir, 'film.mkv'), bytes);
  execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, `-c${MISSING}`, 'film.par2', 'film.mkv'], { cwd: dir });
  set = readPar2Set([readFileSync(join(dir, 'film.par2'))]);
  volumes = readdirSync(dir)
    .filter((f) => /\.vol.*\.par2$/.test(f))
    .map((f) => ({ data: readFileSync(join(dir, f)), at: new Map<number, number>() }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const slice = (i: number) => bytes.subarray(i * SLICE, (i + 1) * SLICE);

/** The longest stretch the event loop could not turn while `work` ran, in ms. */
async function maxLoopDelay(work: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  const turn = () => new Promise((r) => setTimeout(r, 50));
  h.enable();
  try {
    await turn();
    await work();
    await turn(); // the sample of a stall at the end is taken when the loop turns again
  } finally {
    h.disable();
  }
  return h.max / 1e6;
}

test('the streaming solve rebuilds a par2 create set off the main thread: the loop is never blocked like the in-memory solve', async () => {
  for (const v of volumes)
    for (const r of await locateRecoverySlices(
      async (o, n) => v.data.subarray(o, o + n),
      v.data.length,
      set.setId,
      set.sliceSize,
    ))
      v.at.set(r.exponent, r.dataOffset);
  const exponents = volumes.flatMap((v) => [...v.at.keys()]);
  assert.ok(exponents.length >= MISSING, `recovery slices: ${exponents.length}`);
  const read = async (i: number) => (missing.includes(i) ? null : slice(i));

  // the old repair: all recovery slices in memory, the solve on this thread
  const whole = readPar2Set([readFileSync(join(dir, 'film.par2')), ...volumes.map((v) => v.data)]);
  let rebuiltInMemory: Map<number, Buffer> | undefined;
  const blocked = await maxLoopDelay(async () => {
    rebuiltInMemory = await repairSlices(whole, missing, read);
  });
  for (const m of missing) assert.ok(rebuiltInMemory!.get(m)!.equals(slice(m)));

  // the server's repair: strips read by range, multiply-adds in the worker, rebuilt strips to a sink
  const rebuilt = new Map(missing.map((m) => [m, Buffer.alloc(SLICE)]));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const streamed = await maxLoopDelay(() =>
    solveStreaming(
      set,
      exponents,
      missing,
      {
        readInput: async (i, offset, length) => slice(i).subarray(offset, offset + length),
        readRecovery: async (e, offset, length) => {
          const v = volumes.find((x) => x.at.has(e))!;
          const at = v.at.get(e)! + offset;
          return v.data.subarray(at, at + length);
        },
      },
      (index, offset, strip) => void rebuilt.get(index)!.set(strip, offset),
      4 * 2 ** 20, // strips of 64 KiB: many passes
    ),
  ).finally(() => clearInterval(timer));
  for (const m of missing) assert.ok(rebuilt.get(m)!.equals(slice(m)), `slice ${m} rebuilt byte-exact`);

  assert.ok(blocked > 200, `the in-memory solve blocks the loop long enough to compare with (${blocked} ms)`);
  assert.ok(ticks > 0);
  assert.ok(
    streamed < blocked / 4,
    `the loop's longest stall during the streaming solve (${streamed.toFixed(0)} ms) is a fraction of the in-memory solve's (${blocked.toFixed(0)} ms)`,
  );
});
