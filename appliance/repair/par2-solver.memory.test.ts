import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { locateRecoverySlices } from '../par2/locate.js';
import { readPar2Set, type Par2Set } from '../par2/set.js';
import { solveStreaming } from './par2-solver.js';

// Memory of the server's solve (docs/health.md "PAR2 repair"): a 128 MiB set made by `par2 create` with 48 of its
// 1 MiB slices missing, solved within a 16 MiB strip budget, every byte read from disk by range. The in-memory solve
// held the 48 rebuilt slices and the 48 recovery slices (96 MiB); the streaming one holds strips.
const SLICE = 2 ** 20;
const SIZE = 128 * 2 ** 20;
const MISSING = 48;
const BUDGET = 16 * 2 ** 20;
let dir: string;
let set: Par2Set;
const missing = Array.from({ length: MISSING }, (_, n) => 3 + n * 2);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-par2-memory-'));
  const fd = openSync(join(dir, 'film.mkv'), 'w');
  for (let at = 0; at < SIZE; at += 4 * 2 ** 20) writeSync(fd, randomBytes(4 * 2 ** 20));
  closeSync(fd);
  execFileSync('par2', ['create', '-q', '-q', `-s${SLICE}`, `-c${MISSING}`, 'film.par2', 'film.mkv'], { cwd: dir });
  set = readPar2Set([readFileSync(join(dir, 'film.par2'))]);
  writeFileSync(join(dir, 'done'), '');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Peak resident memory of this process so far, from /proc/self/status (VmHWM), in MiB. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m![1]) / 1024;
}

async function readAt(fh: FileHandle, at: number, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(length);
  const { bytesRead } = await fh.read(out, 0, length, at);
  return out.subarray(0, bytesRead);
}

test('the streaming solve of a 128 MiB par2 create set with 48 MiB missing stays within its strip budget', async () => {
  const film = await open(join(dir, 'film.mkv'), 'r');
  const vols = await Promise.all(
    readdirSync(dir)
      .filter((f) => /\.vol.*\.par2$/.test(f))
      .map((f) => open(join(dir, f), 'r')),
  );
  try {
    const at = new Map<number, { fh: FileHandle; offset: number }>();
    for (const fh of vols) {
      const size = (await fh.stat()).size;
      for (const r of await locateRecoverySlices((o, n) => readAt(fh, o, n), size, set.setId, set.sliceSize))
        at.set(r.exponent, { fh, offset: r.dataOffset });
    }
    const check = await open(join(dir, 'film.mkv'), 'r');
    const before = peakRssMb();
    let matched = 0;
    await solveStreaming(
      set,
      [...at.keys()],
      missing,
      {
        readInput: (i, offset, length) => readAt(film, i * SLICE + offset, length),
        readRecovery: (e, offset, length) => readAt(at.get(e)!.fh, at.get(e)!.offset + offset, length),
      },
      async (index, offset, strip) => {
        if ((await readAt(check, index * SLICE + offset, strip.length)).equals(strip)) matched += strip.length;
      },
      BUDGET,
    );
    await check.close();
    const growth = peakRssMb() - before;
    assert.equal(matched, MISSING * SLICE, 'every rebuilt byte matches the original');
    // the budget, the worker thread's own heap and garbage not yet collected; the in-memory solve grew ~90 MiB here
    assert.ok(
      growth < 64,
      `peak RSS grew ${growth.toFixed(0)} MiB for a ${BUDGET / 2 ** 20} MiB budget (48 MiB missing, a 128 MiB set)`,
    );
  } finally {
    await film.close();
    for (const v of vols) await v.close();
  }
});
