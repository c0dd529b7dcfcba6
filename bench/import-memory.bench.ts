/**
 * Import memory (docs/performance.md, "Import memory"): peak and settled RSS of one process importing a generated
 * ~100 MB NZB (20 files, 950,000 segments): enqueue, parse in the worker, probe, layouts, VFS write. Runs in a
 * child process of its own (bench/lib/import-memory-child.ts) so RSS is the import's. Target: peak under 400 MB
 * and memory returned afterwards. SPOOL_BENCH_NZB_ARTICLES sets the segment count.
 *
 * Then two big archive releases posted to the local INN and imported by the real server, each in a child process of
 * its own (bench/lib/import-release-child.ts; issue 21): a film in 500 RAR5 volumes and a season pack of 24 RAR5 sets
 * under random names (bench/lib/archive-releases.ts). Target: peak RSS under 400 MB for each.
 * SPOOL_BENCH_VOLUME_KB sets the volume size (default 1000 KB: one 768,000-byte article and a second, smaller one);
 * SPOOL_BENCH_MEMORY_RELEASES_ONLY=1 runs only these two.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInn } from '../tests/support/inn/server.js';
import { postFilm, postSeasonPack, type PostedRelease } from './lib/archive-releases.js';

const CHILD = fileURLToPath(new URL('./lib/import-memory-child.ts', import.meta.url));
const RELEASE_CHILD = fileURLToPath(new URL('./lib/import-release-child.ts', import.meta.url));
const VOLUME_BYTES = Number(process.env.SPOOL_BENCH_VOLUME_KB ?? 1000) * 1000;
const MB = (n: number) => `${Math.round(n / 1e6)} MB`;

/** Imports one posted release in a child process of its own; its RSS figures. */
function importInChild(release: PostedRelease, name: string): Record<string, number | string | null> {
  const dir = mkdtempSync(join(tmpdir(), 'spool-bench-release-'));
  try {
    const path = join(dir, `${name}.nzb`);
    writeFileSync(path, release.nzb);
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', RELEASE_CHILD, path], {
      encoding: 'utf8',
      env: process.env,
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number | string | null>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two big archive releases (issue 21): rows of the report. */
async function bigReleases(log: (m: string) => void): Promise<string[]> {
  const inn = await ensureInn();
  const rows: string[] = [];
  const cases: [string, () => Promise<PostedRelease>][] = [
    ['Big.Film.2024.2160p', () => postFilm(inn, 500, VOLUME_BYTES)],
    ['Big.Show.S01.1080p', () => postSeasonPack(inn, 24, 8, VOLUME_BYTES)],
  ];
  for (const [name, postRelease] of cases) {
    const t0 = performance.now();
    const release = await postRelease();
    log(
      `${name}: posted ${release.volumes} volumes in ${release.sets} set(s), ${MB(release.bytes)}, in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    const r = importInChild(release, name);
    log(`${name}: ${JSON.stringify(r)}`);
    if (r.status !== 'completed' || r.files !== release.files)
      throw new Error(`${name}: ${String(r.status)} with ${String(r.files)} files (${String(r.error)})`);
    rows.push(
      `| ${release.sets === 1 ? 'Film' : 'Season pack'}: ${release.volumes} RAR5 volumes in ${release.sets} set(s), ${MB(release.bytes)} (${VOLUME_BYTES / 1000} KB volumes) | ${r.files} | ${r.baseline_mb} MB | ${r.peak_mb} MB (VmHWM ${r.vm_hwm_mb} MB) | ${r.seconds} s | peak < 400 MB |`,
    );
  }
  return rows;
}

export async function run(log: (m: string) => void): Promise<string> {
  if (process.env.SPOOL_BENCH_MEMORY_RELEASES_ONLY === '1') {
    const rows = await bigReleases(log);
    return [
      '| Archive release | Job files | RSS before | Peak RSS | Time | Target |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  }
  log('importing a generated ~100 MB NZB in a child process (RSS sampled every 20 ms)');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  log(JSON.stringify(r));
  const releases = await bigReleases(log);
  return [
    '| NZB | Segments | Files | RSS before | Peak RSS | RSS after (idle worker gone) | Time | Target |',
    '|---|---|---|---|---|---|---|---|',
    `| ${r.nzb_mb} MB | ${r.articles} | ${r.files} | ${r.baseline_mb} MB | ${r.peak_mb} MB | ${r.after_worker_exit_mb} MB | ${r.seconds} s | peak < 400 MB |`,
    '',
    '| Archive release (real server, local INN) | Job files | RSS before | Peak RSS | Time | Target |',
    '|---|---|---|---|---|---|',
    ...releases,
  ].join('\n');
}
