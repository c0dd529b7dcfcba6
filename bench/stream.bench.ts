/**
 * Streaming benchmark (issue 5), one run against the local INN fixture (bench/lib/fixture, SPOOL_BENCH_MB):
 * - beside each other: a raw pipelined BODY fetch of the same articles and Debian nzbget on the same NZB
 *   (bench/lib, shared with the NNTP bench), then Spool's sequential WebDAV GET of the file;
 * - INN's page cache is warmed by one raw fetch first (the first read of a freshly posted or evicted fixture comes
 *   from disk and made the raw baseline swing 650-2500 MB/s); then SPOOL_STREAM_ROUNDS rounds (default 3)
 *   alternate the raw fetch and a sequential GET in a fresh server whose JIT was warmed on the file's last
 *   64 MiB (a long-running server is warm; a fresh process spends ~0.4 CPU-s/GiB more compiling), and the CPU of
 *   INN, the server and curl is counted per round (bench/lib/cpu-budget);
 * - the server is the real process (the compiled main.js as a child under plain node, temp SPOOL_DATA, default streaming settings), the file comes
 *   in through the real import API, and CPU time and peak RSS (VmHWM) are the server's alone; curl is the client;
 * - three fresh server processes on the same data dir, so no phase inherits another's article cache:
 *   A) sequential GET, 4 concurrent streams (quarters of the file), peak RSS;
 *   B) cold reads: time to first byte at random offsets and 1 MB ranges at random offsets, each in articles no
 *      earlier read touched, and each checked to have moved the pool's byte counter (no cache hit);
 *   C) sequential read through the FUSE mount (dd in a child process) against A's WebDAV figure;
 * - both stores (bench/lib/store-compare.ts): the same file imported into a Spool on PostgreSQL, then rounds
 *   alternating the LMDB and the PostgreSQL server, side by side with the ratio (target: within 10%).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchFixture, BENCH_MB, type Fixture } from './lib/fixture.js';
import { timedGet, quantile } from './lib/http-client.js';
import { curlWithCpu, withInnCpu } from './lib/cpu-budget.js';
import { cpuPerGib, mbps, runWorker } from './lib/measure.js';
import { runNzbget } from './lib/nzbget.js';
import { bootSpool, buildServer, davUrl, importFixture, poolBytes, startMount } from './lib/spool-server.js';
import { coldPicker } from './lib/cold-offsets.js';
import { compareStores } from './lib/store-compare.js';
import { isMounted } from '../appliance/fuse/mount.service.js';

const run = promisify(execFile);
let main = '';
const GIB = 2 ** 30;
const MB = 1_000_000;

export async function run_(log: (m: string) => void): Promise<string> {
  const f = await benchFixture(log);
  const size = f.file.size;
  log('compiling the server (plain node, as in production)');
  main = buildServer();
  log("warming INN's page cache with one raw fetch (not reported)");
  runWorker('raw', f);
  log('Debian nzbget on the same NZB');
  const nz = await runNzbget(f);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-data-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-mnt-'));
  try {
    const a = await phaseSequential(f, dataDir, mnt, log);
    const rounds = await phaseRounds(f, dataDir, mnt, a.file, log);
    const b = await phaseCold(f, dataDir, mnt, a.file, log);
    const c = await phaseFuse(f, dataDir, mnt, a.file, log);
    const stores = await compareStores(f, main, dataDir, a.file, mnt, log);
    const seqMBs = a.seq.bytes / (a.seq.totalMs / 1000) / MB;
    const fuseMBs = size / (c.ms / 1000) / MB;
    const peak = Math.max(a.rss, b.rss, c.rss);
    const med = (pick: (r: Round) => number) => quantile(rounds.map(pick), 0.5);
    const rawMBs = med((r) => r.rawMBs);
    const warmMBs = med((r) => r.davMBs);
    return [
      `File: ${BENCH_MB} MiB in ${f.file.segments.length} articles of 768,000 bytes on the local INN (plain TCP, 8 connections for every client). Spool: the compiled \`main.js\` under plain node in its own process, default streaming settings (cache 128 MB, 10 fetches per stream), file imported through \`POST /api/queue/upload\`; client: curl.`,
      '',
      roundsTable(rounds),
      '',
      '| measure | value | target |',
      '|---|---|---|',
      `| raw BODY fetch, no decode (median of rounds) | ${rawMBs.toFixed(0)} MB/s | |`,
      `| nzbget 21 (Debian), same NZB | ${mbps(nz).toFixed(0)} MB/s, ${cpuPerGib(nz).toFixed(2)} CPU-s/GiB, ${nz.peakRssMb.toFixed(0)} MiB | |`,
      `| **sequential WebDAV GET, warm server** (median of rounds) | **${warmMBs.toFixed(0)} MB/s** (${(warmMBs / mbps(nz)).toFixed(2)}x nzbget, ${med((r) => (r.davMBs / r.rawMBs) * 100).toFixed(0)}% of raw), server ${med((r) => r.serverCpuPerGib).toFixed(2)} CPU-s/GiB | >= nzbget, >= 60% of raw |`,
      `| CPU budget: ratio the three processes' CPU-s/GiB allow with both runs using the cores alike | ${med(budgetCeiling).toFixed(0)}% | |`,
      `| first GET after start (fresh process, JIT cold), whole file | ${seqMBs.toFixed(0)} MB/s, server ${(a.seqCpu / (a.seq.bytes / GIB)).toFixed(2)} CPU-s/GiB | |`,
      `| cold first byte at a random offset (p50 / max of ${b.ttfb.length}) | ${quantile(b.ttfb, 0.5).toFixed(1)} ms / ${Math.max(...b.ttfb).toFixed(1)} ms | < 50 ms |`,
      `| cold 1 MB range at a random offset, p50 / p99 (${b.range.length}) | ${quantile(b.range, 0.5).toFixed(1)} ms / ${quantile(b.range, 0.99).toFixed(1)} ms | p50 < 50 ms |`,
      `| cold reads served from the cache (must be 0) | ${b.cacheHits} | 0 |`,
      `| 4 concurrent streams (quarters) | ${a.fourMBs.toFixed(0)} MB/s total, server ${a.fourCpuPerGib.toFixed(2)} CPU-s/GiB | |`,
      `| server peak RSS (VmHWM) after sequential + 4 streams | ${a.rss.toFixed(0)} MiB (all phases: ${peak.toFixed(0)} MiB) | < 300 MB |`,
      `| FUSE sequential read (dd bs=1M), fresh process | ${fuseMBs.toFixed(0)} MB/s (${((fuseMBs / seqMBs) * 100).toFixed(0)}% of the first WebDAV GET, also a fresh process) | >= 80% |`,
      '',
      stores,
    ].join('\n');
  } finally {
    if (isMounted(mnt)) await run('fusermount', ['-uz', mnt]).catch(() => undefined);
    rmSync(mnt, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
export { run_ as run };

async function phaseSequential(f: Fixture, dataDir: string, mnt: string, log: (m: string) => void) {
  const srv = await bootSpool(f, dataDir, mnt, main);
  try {
    log('A: import through the queue API, sequential GET, 4 streams');
    const file = await importFixture(srv, f);
    const url = davUrl(srv, file);
    const cpu0 = srv.cpuSeconds();
    const seq = await timedGet(url);
    const seqCpu = srv.cpuSeconds() - cpu0;
    if (seq.bytes !== f.file.size) throw new Error(`sequential GET returned ${seq.bytes} of ${f.file.size} bytes`);
    const q = Math.floor(f.file.size / 4);
    const cpu4 = srv.cpuSeconds();
    const t4 = performance.now();
    const four = await Promise.all(
      [0, 1, 2, 3].map((i) => timedGet(url, `${i * q}-${i === 3 ? f.file.size - 1 : (i + 1) * q - 1}`)),
    );
    const fourBytes = four.reduce((n, r) => n + r.bytes, 0);
    const fourMBs = fourBytes / ((performance.now() - t4) / 1000) / MB;
    const fourCpuPerGib = (srv.cpuSeconds() - cpu4) / (fourBytes / GIB);
    return { file, seq, seqCpu, fourMBs, fourCpuPerGib, rss: srv.peakRssMb() };
  } finally {
    await srv.stop();
  }
}

interface Round {
  rawMBs: number;
  rawClientCpuPerGib: number;
  rawInnCpuPerGib: number;
  davMBs: number;
  serverCpuPerGib: number;
  curlCpuPerGib: number;
  davInnCpuPerGib: number;
}

const WARM_BYTES = 64 * 2 ** 20;

/** Raw fetch and warm-server GET, alternated, so each pair sees the same moment of the shared machine. */
async function phaseRounds(f: Fixture, dataDir: string, mnt: string, file: string, log: (m: string) => void) {
  const rounds: Round[] = [];
  const n = Number(process.env.SPOOL_STREAM_ROUNDS ?? 3);
  const size = f.file.size;
  for (let i = 1; i <= n; i++) {
    log(`round ${i}/${n}: raw fetch, then a GET in a fresh server warmed on the file's last 64 MiB`);
    const raw = await withInnCpu(() => runWorker('raw', f));
    const srv = await bootSpool(f, dataDir, mnt, main);
    try {
      const url = davUrl(srv, file);
      await timedGet(url, `${size - WARM_BYTES}-${size - 1}`);
      const cpu0 = srv.cpuSeconds();
      const dav = await withInnCpu(() => curlWithCpu(url, `0-${size - WARM_BYTES - 1}`));
      const gib = dav.value.bytes / GIB;
      if (dav.value.bytes !== size - WARM_BYTES) throw new Error(`GET returned ${dav.value.bytes} bytes`);
      rounds.push({
        rawMBs: mbps(raw.value),
        rawClientCpuPerGib: cpuPerGib(raw.value),
        rawInnCpuPerGib: raw.innCpu / (raw.value.bytes / GIB),
        davMBs: dav.value.bytes / dav.value.seconds / MB,
        serverCpuPerGib: (srv.cpuSeconds() - cpu0) / gib,
        curlCpuPerGib: dav.value.cpuSeconds / gib,
        davInnCpuPerGib: dav.innCpu / gib,
      });
    } finally {
      await srv.stop();
    }
  }
  return rounds;
}

/** If both runs kept the cores equally busy, throughput would go as 1 / (CPU-s per GiB of everyone involved). */
function budgetCeiling(r: Round): number {
  return ((r.rawInnCpuPerGib + r.rawClientCpuPerGib) / (r.davInnCpuPerGib + r.serverCpuPerGib + r.curlCpuPerGib)) * 100;
}

function roundsTable(rounds: Round[]): string {
  const rows = rounds.map(
    (r, i) =>
      `| ${i + 1} | ${r.rawMBs.toFixed(0)} | ${r.rawClientCpuPerGib.toFixed(2)} | ${r.rawInnCpuPerGib.toFixed(2)} | ${r.davMBs.toFixed(0)} | ${((r.davMBs / r.rawMBs) * 100).toFixed(0)}% | ${r.serverCpuPerGib.toFixed(2)} | ${r.curlCpuPerGib.toFixed(2)} | ${r.davInnCpuPerGib.toFixed(2)} | ${budgetCeiling(r).toFixed(0)}% |`,
  );
  return [
    '| round | raw MB/s | raw client CPU-s/GiB | INN (raw) | WebDAV MB/s | of raw | server CPU-s/GiB | curl | INN (WebDAV) | CPU budget allows |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

async function phaseCold(f: Fixture, dataDir: string, mnt: string, file: string, log: (m: string) => void) {
  const srv = await bootSpool(f, dataDir, mnt, main);
  try {
    log('B: cold reads in a fresh process');
    const url = davUrl(srv, file);
    const pick = coldPicker(f.file.segments.map((s) => ({ start: s.offset, end: s.offset + s.size })));
    let cacheHits = 0;
    const cold = async (length: number) => {
      const off = pick(length);
      if (off === null) return null;
      const before = await poolBytes(srv);
      const t = await timedGet(url, `${off}-${off + length - 1}`);
      if ((await poolBytes(srv)) === before) cacheHits++;
      return t;
    };
    const ttfb: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = await cold(65_536);
      if (t) ttfb.push(t.ttfbMs);
    }
    const range: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = await cold(MB);
      if (!t) break; // a small fixture runs out of untouched articles
      range.push(t.totalMs);
    }
    return { ttfb, range, cacheHits, rss: srv.peakRssMb() };
  } finally {
    await srv.stop();
  }
}

async function phaseFuse(f: Fixture, dataDir: string, mnt: string, file: string, log: (m: string) => void) {
  const srv = await bootSpool(f, dataDir, mnt, main);
  try {
    log('C: sequential read through the FUSE mount in a fresh process');
    await startMount(srv);
    const t0 = performance.now();
    await run('dd', [`if=${path.join(mnt, file)}`, 'of=/dev/null', 'bs=1M'], { timeout: 900_000 });
    return { ms: performance.now() - t0, rss: srv.peakRssMb() };
  } finally {
    await srv.stop();
  }
}
