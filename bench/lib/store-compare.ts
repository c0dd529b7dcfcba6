/**
 * The stream bench on both stores (issue 25: a read on a node backed by PostgreSQL streams as fast as one backed by
 * LMDB, within 10%): the same file imported into a Spool on LMDB (the bench's own data dir) and into a Spool on a
 * real PostgreSQL (tests/support/postgres/server.ts, the node's tree replica in its own data dir), then rounds that
 * alternate the two, each side in a fresh server: cold first bytes at random offsets, then a sequential GET after
 * the same JIT warm-up as the bench's rounds. Reported side by side with the ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../tests/support/postgres/server.js';
import { coldPicker } from './cold-offsets.js';
import { curlWithCpu } from './cpu-budget.js';
import type { Fixture } from './fixture.js';
import { quantile, timedGet } from './http-client.js';
import { bootSpoolWith, davUrl, importFixture } from './spool-server.js';

const GIB = 2 ** 30;
const MB = 1_000_000;
const WARM_BYTES = 64 * 2 ** 20;
const COLD_READS = 5;

interface Side {
  label: string;
  dataDir: string;
  /** The file's path in this side's tree (each import names its job anew). */
  file: string;
  env?: Record<string, string>;
}

interface Sample {
  seqMBs: number;
  serverCpuPerGib: number;
  ttfbMs: number[];
}

/** Imports the fixture into a Spool on PostgreSQL, then measures both stores; returns the report's markdown. */
export async function compareStores(
  f: Fixture,
  main: string,
  lmdbDataDir: string,
  file: string,
  mnt: string,
  log: (m: string) => void,
): Promise<string> {
  const pg = await startPostgres();
  const pgDataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-pg-'));
  try {
    const env = { SPOOL_DATABASE_URL: await pg.createDatabase() };
    log('PostgreSQL: import the same fixture into a Spool on a fresh database');
    const srv = await bootSpoolWith(f, pgDataDir, mnt, main, { env });
    const t0 = performance.now();
    const pgFile = await importFixture(srv, f).finally(() => srv.stop());
    const importS = (performance.now() - t0) / 1000;
    await mustHoldTheTree(env.SPOOL_DATABASE_URL);
    const sides: Side[] = [
      { label: 'LMDB', dataDir: lmdbDataDir, file },
      { label: 'PostgreSQL', dataDir: pgDataDir, env, file: pgFile },
    ];
    const samples = new Map<string, Sample[]>(sides.map((s) => [s.label, []]));
    const n = Number(process.env.SPOOL_STREAM_ROUNDS ?? 3);
    for (let i = 1; i <= n; i++) {
      for (const side of sides) {
        log(`stores round ${i}/${n}: ${side.label}, fresh server: cold first bytes, warm-up, sequential GET`);
        samples.get(side.label)!.push(await measure(f, main, side, mnt));
      }
    }
    return report(samples.get('LMDB')!, samples.get('PostgreSQL')!, importS);
  } finally {
    rmSync(pgDataDir, { recursive: true, force: true });
    await pg.stop();
  }
}

async function measure(f: Fixture, main: string, side: Side, mnt: string): Promise<Sample> {
  const srv = await bootSpoolWith(f, side.dataDir, mnt, main, { env: side.env });
  try {
    const url = davUrl(srv, side.file);
    const size = f.file.size;
    const pick = coldPicker(f.file.segments.map((s) => ({ start: s.offset, end: s.offset + s.size })));
    const ttfbMs: number[] = [];
    for (let i = 0; i < COLD_READS; i++) {
      const off = pick(65_536);
      if (off === null || off + 65_536 > size - WARM_BYTES) continue;
      ttfbMs.push((await timedGet(url, `${off}-${off + 65_535}`)).ttfbMs);
    }
    await timedGet(url, `${size - WARM_BYTES}-${size - 1}`);
    const cpu0 = srv.cpuSeconds();
    const dav = await curlWithCpu(url, `0-${size - WARM_BYTES - 1}`);
    if (dav.bytes !== size - WARM_BYTES) throw new Error(`${side.label}: GET returned ${dav.bytes} bytes`);
    return {
      seqMBs: dav.bytes / dav.seconds / MB,
      serverCpuPerGib: (srv.cpuSeconds() - cpu0) / (dav.bytes / GIB),
      ttfbMs,
    };
  } finally {
    await srv.stop();
  }
}

/** The node really ran on PostgreSQL (an LMDB fallback would compare LMDB with itself): it made the tree schema. */
export async function mustHoldTheTree(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ scope: string }>('SELECT scope FROM spool_schema').catch(() => ({ rows: [] }));
    if (!r.rows.some((row) => row.scope === 'tree'))
      throw new Error('the node given SPOOL_DATABASE_URL did not open the PostgreSQL tree store (no tree schema)');
  } finally {
    await c.end();
  }
}

function report(lmdb: Sample[], pg: Sample[], importS: number): string {
  const med = (xs: Sample[], pick: (s: Sample) => number) => quantile(xs.map(pick), 0.5);
  const ttfb = (xs: Sample[]) =>
    quantile(
      xs.flatMap((s) => s.ttfbMs),
      0.5,
    );
  const seq = [med(lmdb, (s) => s.seqMBs), med(pg, (s) => s.seqMBs)] as const;
  const cpu = [med(lmdb, (s) => s.serverCpuPerGib), med(pg, (s) => s.serverCpuPerGib)] as const;
  const first = [ttfb(lmdb), ttfb(pg)] as const;
  const rounds = lmdb.map(
    (l, i) =>
      `| ${i + 1} | ${l.seqMBs.toFixed(0)} | ${pg[i]!.seqMBs.toFixed(0)} | ${(pg[i]!.seqMBs / l.seqMBs).toFixed(2)} |`,
  );
  return [
    `Both stores, the same file: Spool on LMDB (the data dir above) and Spool on PostgreSQL 15 (a fresh database on loopback; the node reads its tree from its local replica). Rounds alternate the two, each side in a fresh server. The PostgreSQL node imported the fixture in ${importS.toFixed(1)} s.`,
    '',
    '| round | LMDB MB/s | PostgreSQL MB/s | PostgreSQL / LMDB |',
    '|---|---|---|---|',
    ...rounds,
    '',
    '| measure (median of rounds) | LMDB | PostgreSQL | PostgreSQL / LMDB | target |',
    '|---|---|---|---|---|',
    `| **sequential WebDAV GET, warm server** | ${seq[0].toFixed(0)} MB/s | ${seq[1].toFixed(0)} MB/s | **${(seq[1] / seq[0]).toFixed(2)}** | >= 0.90 |`,
    `| server CPU-s/GiB of that GET | ${cpu[0].toFixed(2)} | ${cpu[1].toFixed(2)} | ${(cpu[1] / cpu[0]).toFixed(2)} | |`,
    `| cold first byte at a random offset, p50 of ${lmdb.flatMap((s) => s.ttfbMs).length} | ${first[0].toFixed(1)} ms | ${first[1].toFixed(1)} ms | ${(first[1] / first[0]).toFixed(2)} | |`,
  ].join('\n');
}
