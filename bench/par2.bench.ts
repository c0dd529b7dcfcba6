/**
 * PAR2 repair benchmark (issue 23, docs/par2.md "Speed"): a set made by Debian's `par2 create` (10% recovery,
 * 1 MiB slices) over four files, damaged on disk by zeroing whole slices (as missing articles read back), then
 * repaired twice in the same run: in memory by appliance/par2/ (find damaged slices by checksum, then solve), and by
 * `par2 repair` on a copy of the same damaged files. Prints both times and peak RSS (ours: this process; par2's:
 * /usr/bin/time). SPOOL_BENCH_PAR2_MB (default 256) sets the data, SPOOL_BENCH_PAR2_SLICE_KB (default 1024) the
 * slice size, SPOOL_BENCH_PAR2_DAMAGE the slices zeroed (default half the recovery slices).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPar2Set } from '../appliance/par2/set.js';
import { findDamagedSlices, repairSlices } from '../appliance/par2/solve.js';

const MB = Number(process.env.SPOOL_BENCH_PAR2_MB ?? 256);
const SLICE = Number(process.env.SPOOL_BENCH_PAR2_SLICE_KB ?? 1024) * 1024;
const MiB = 1024 * 1024;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function run(log: (m: string) => void): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'spool-bench-par2-'));
  try {
    const made = join(root, 'made');
    mkdirSync(made);
    const total = MB * MiB;
    const sizes = [Math.floor(total * 0.7) + 13, Math.floor(total * 0.2) + 4093, Math.floor(total * 0.1) - 4106, 777];
    const originals = sizes.map((size, i) => ({ name: `file${i}.bin`, data: randomBytes(size) }));
    for (const f of originals) writeFileSync(join(made, f.name), f.data);
    log(`par2 create -r10 -s${SLICE} over ${MB} MiB`);
    let t0 = performance.now();
    execFileSync('par2', ['create', '-q', '-q', '-r10', `-s${SLICE}`, 'set.par2', ...originals.map((f) => f.name)], {
      cwd: made,
    });
    const createMs = performance.now() - t0;
    const volumeNames = readdirSync(made).filter((f) => f.endsWith('.par2'));
    const set = readPar2Set(volumeNames.map((f) => readFileSync(join(made, f))));
    const damage = Number(process.env.SPOOL_BENCH_PAR2_DAMAGE ?? Math.floor(set.recovery.size / 2));
    // zero `damage` whole slices spread over the set, on disk
    const step = Math.floor(set.checksums.length / damage);
    const zeroed = Array.from({ length: damage }, (_, n) => n * step);
    for (const i of zeroed) {
      const file = set.files.find((f) => i >= f.firstSlice && i < f.firstSlice + f.sliceCount)!;
      const onDisk = originals.find((f) => f.name === file.name)!;
      const damaged = Buffer.from(readFileSync(join(made, file.name)));
      damaged.fill(0, (i - file.firstSlice) * SLICE, Math.min(onDisk.data.length, (i - file.firstSlice + 1) * SLICE));
      writeFileSync(join(made, file.name), damaged);
    }
    const theirs = join(root, 'theirs');
    cpSync(made, theirs, { recursive: true });
    log(`${set.checksums.length} slices, ${set.recovery.size} recovery, ${damage} zeroed: repairing in memory`);

    t0 = performance.now();
    const volumes = volumeNames.map((f) => readFileSync(join(made, f)));
    const files = new Map(set.files.map((f) => [f.name, readFileSync(join(made, f.name))]));
    const repairSet = readPar2Set(volumes);
    const read = async (i: number) => {
      const file = repairSet.files.find((f) => i >= f.firstSlice && i < f.firstSlice + f.sliceCount)!;
      const at = (i - file.firstSlice) * SLICE;
      return files.get(file.name)!.subarray(at, at + SLICE);
    };
    const damaged = await findDamagedSlices(repairSet, read);
    const findMs = performance.now() - t0;
    const rebuilt = await repairSlices(repairSet, damaged, read);
    const oursMs = performance.now() - t0;
    const oursRss = process.resourceUsage().maxRSS / 1024;
    for (const [i, bytes] of rebuilt) {
      const file = repairSet.files.find((f) => i >= f.firstSlice && i < f.firstSlice + f.sliceCount)!;
      const at = (i - file.firstSlice) * SLICE;
      const want = originals.find((f) => f.name === file.name)!.data.subarray(at, at + SLICE);
      if (!bytes.subarray(0, want.length).equals(want)) throw new Error(`slice ${i} rebuilt wrong`);
    }
    if (damaged.length !== damage) throw new Error(`found ${damaged.length} damaged slices, zeroed ${damage}`);

    log('par2 repair on a copy of the same damaged files');
    t0 = performance.now();
    const par2 = spawnSync('/usr/bin/time', ['-f', '%M', 'par2', 'repair', '-q', '-q', 'set.par2'], {
      cwd: theirs,
      encoding: 'utf8',
    });
    const theirsMs = performance.now() - t0;
    if (par2.status !== 0) throw new Error(`par2 repair failed: ${par2.stderr}`);
    const theirsRss = Number(par2.stderr.trim().split('\n').pop()) / 1024;
    for (const f of originals)
      if (!readFileSync(join(theirs, f.name)).equals(f.data)) throw new Error(`par2 repair left ${f.name} wrong`);

    return [
      `${MB} MiB in 4 files, ${SLICE / 1024} KiB slices: ${set.checksums.length} slices, ${set.recovery.size} recovery ` +
        `slices (par2 create: ${secs(createMs)}), ${damage} slices zeroed on disk.`,
      '',
      '| Repair | Time | Peak RSS |',
      '| --- | --- | --- |',
      `| appliance/par2 (JS, in memory; finding the damage: ${secs(findMs)}) | ${secs(oursMs)} | ${oursRss.toFixed(0)} MiB |`,
      `| par2 repair (par2cmdline) | ${secs(theirsMs)} | ${theirsRss.toFixed(0)} MiB |`,
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
