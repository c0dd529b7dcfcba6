/**
 * PAR2 repair benchmark (issue 23, docs/par2.md "Speed"): a release of SPOOL_BENCH_PAR2_MB MiB (default 4096) in
 * files of at most 512 MiB, a recovery set made by Debian's `par2 create -r5`, all posted to the bench INN, and
 * articles cancelled from INN until their slices make half the recovery slices (bench/lib/par2-fixture.ts; made once
 * and reused). Then, in the same run:
 * - `par2 repair` (par2cmdline) on a local copy of the files with the cancelled articles' bytes zeroed;
 * - Spool's repair in a child process (bench/lib/par2-repair-child.ts): every byte read from INN, the damage found by
 *   the PAR2 checksums, the solve streamed in strips by the server's solver (appliance/repair/par2-solver.ts,
 *   multiply-adds in its worker thread), its peak RSS from /proc/self/status.
 * Both results are checked byte for byte against the originals. SPOOL_BENCH_PAR2_MEMORY_MB (default DEFAULT_REPAIR_MEMORY, 48) is the
 * solve's strip budget.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, rmSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { damagedCopy, par2Fixture, type Par2Fixture } from './lib/par2-fixture.js';
import { DEFAULT_REPAIR_MEMORY } from '../appliance/par2/stream-solve.js';

const WANT_MB = Number(process.env.SPOOL_BENCH_PAR2_MB ?? 4096);
const MEMORY = Number(process.env.SPOOL_BENCH_PAR2_MEMORY_MB ?? DEFAULT_REPAIR_MEMORY / 2 ** 20) * 2 ** 20;
const RSS_TARGET_MB = 300;
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'par2-repair-child.ts');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface ChildResult {
  damaged: number[];
  findMs: number;
  solveMs: number;
  totalMs: number;
  baselineMb: number;
  findVmHwmMb: number;
  vmHwmMb: number;
  findFetchedMb: number;
  solveFetchedMb: number;
  strip: number;
  backend: string;
}

export async function run(log: (m: string) => void): Promise<string> {
  // the originals, par2cmdline's copy and INN's yEnc articles: about 3.2 times the set, plus room to spare
  const free = statfsSync('/var/tmp');
  const freeMb = (free.bavail * free.bsize) / 2 ** 20;
  const mb = Math.min(WANT_MB, Math.floor((freeMb - 8192) / 3.2 / 256) * 256);
  const note =
    mb < WANT_MB ? `**Smaller than asked**: ${mb} MiB, not ${WANT_MB} MiB (${freeMb.toFixed(0)} MiB free).` : '';
  if (mb < 256) throw new Error(`not enough disk in /var/tmp for the PAR2 bench (${freeMb.toFixed(0)} MiB free)`);
  const { inn, f } = await par2Fixture(mb, log);
  const theirs = `${f.dir}-theirs`;
  const out = `${f.dir}-rebuilt.bin`;
  try {
    log(
      `${f.inputSlices} slices of ${f.sliceSize} bytes, ${f.recoverySlices} recovery; ${f.cancelled.length} articles cancelled`,
    );
    damagedCopy(f, theirs);
    log('par2 repair on the local damaged copy');
    let t0 = performance.now();
    const par2 = spawnSync('/usr/bin/time', ['-f', '%M', 'par2', 'repair', '-q', '-q', 'release.par2'], {
      cwd: theirs,
      encoding: 'utf8',
    });
    const theirsMs = performance.now() - t0;
    if (par2.status !== 0) throw new Error(`par2 repair failed: ${par2.stdout}${par2.stderr}`);
    const theirsRss = Number(par2.stderr.trim().split('\n').pop()) / 1024;
    for (const file of f.files) execFileSync('cmp', [path.join(f.dir, file.name), path.join(theirs, file.name)]);
    rmSync(theirs, { recursive: true, force: true });

    log("Spool's repair, reading from INN, in a child process");
    t0 = performance.now();
    const child = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        CHILD,
        JSON.stringify({
          inn: { host: inn.host, port: inn.port, username: inn.username, password: inn.password },
          fixture: path.join(f.dir, 'fixture.json'),
          out,
          memoryBytes: MEMORY,
          connections: 4,
        }),
      ],
      { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
    );
    const wallMs = performance.now() - t0;
    const ours = JSON.parse(child.trim().split('\n').pop()!) as ChildResult;
    if (ours.damaged.join() !== f.damagedSlices.join())
      throw new Error(
        `Spool found damaged slices ${ours.damaged.join()}, the cancelled articles touch ${f.damagedSlices.join()}`,
      );
    checkRebuilt(f, ours.damaged, out);

    const ratio = ours.totalMs / theirsMs;
    return [
      note,
      `${mb} MiB in ${f.files.length} files; par2 create -r5 (${secs(f.createMs)} when the set was made): ` +
        `${f.inputSlices} slices of ${f.sliceSize} bytes, ${f.recoverySlices} recovery slices. ` +
        `${f.cancelled.length} articles cancelled from INN, damaging ${f.damagedSlices.length} slices ` +
        `(zeroed in par2cmdline's local copy). Both repairs checked byte for byte against the originals.`,
      '',
      '| Repair | Time | Peak RSS |',
      '| --- | --- | --- |',
      `| Spool (reads from INN; find ${secs(ours.findMs)} reading ${ours.findFetchedMb.toFixed(0)} MiB, solve ` +
        `${secs(ours.solveMs)} reading ${ours.solveFetchedMb.toFixed(0)} MiB; ${ours.strip}-byte strips, ` +
        `${ours.backend} kernel) | ${secs(ours.totalMs)} (process ${secs(wallMs)}) | ` +
        `${ours.vmHwmMb.toFixed(0)} MiB VmHWM (${ours.baselineMb.toFixed(0)} MiB at start, ` +
        `${ours.findVmHwmMb.toFixed(0)} MiB after finding the damage) |`,
      `| par2 repair (par2cmdline, local files) | ${secs(theirsMs)} | ${theirsRss.toFixed(0)} MiB |`,
      '',
      `Spool / par2cmdline time: ${ratio.toFixed(2)} (${ratio <= 1 ? 'meets' : 'misses'} the target of at most 1). ` +
        `Spool's peak RSS ${ours.vmHwmMb.toFixed(0)} MiB against the ${RSS_TARGET_MB} MB target: ` +
        `${ours.vmHwmMb * 1.048576 < RSS_TARGET_MB ? 'under' : 'OVER'}.`,
    ]
      .filter((l, i) => i > 0 || l)
      .join('\n');
  } finally {
    rmSync(theirs, { recursive: true, force: true });
    rmSync(out, { force: true });
  }
}

/** Each rebuilt slice (at its place in `out`) equals the original bytes, zero-padded past its file's end. */
function checkRebuilt(f: Par2Fixture, damaged: number[], out: string): void {
  const rebuilt = openSync(out, 'r');
  const got = Buffer.alloc(f.sliceSize);
  const want = Buffer.alloc(f.sliceSize);
  damaged.forEach((i, j) => {
    const file = f.sliceOrder.filter((x) => x.firstSlice <= i).at(-1)!;
    readSync(rebuilt, got, 0, f.sliceSize, j * f.sliceSize);
    want.fill(0);
    const fd = openSync(path.join(f.dir, file.name), 'r');
    readSync(fd, want, 0, f.sliceSize, (i - file.firstSlice) * f.sliceSize);
    closeSync(fd);
    if (!got.equals(want)) throw new Error(`slice ${i} rebuilt wrong`);
  });
  closeSync(rebuilt);
}
