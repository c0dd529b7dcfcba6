/**
 * Latency benchmark (issue 15; `npm run bench -- latency`): the real server reading from INN over TLS through an
 * emulated link (bench/lib/delay-proxy.ts in a process of its own: half the round trip each way, a TCP handshake's cost per new
 * connection) at SPOOL_BENCH_RTTS (default 0,20,80 ms), 20 connections, as a real provider is reached.
 * Fixture: SPOOL_BENCH_LATENCY_MB (default 512) MiB on the local INN, through its TLS front (`nnrpd -S`).
 *
 * For each round trip, with a fresh proxy:
 * - raw: the pipelined BODY fetch (bench/lib/fetch-worker.ts, no decode, 20 connections x SPOOL_BENCH_RAW_DEPTH
 *   deep, default 8) through the same link: what the link and INN allow;
 * - sequential: a WebDAV GET of the file (curl) in a server warmed on the file's last 64 MiB, beside the raw fetch;
 *   the pool's metrics are sampled every 20 ms for the articles in flight (`in_flight_commands`);
 * - cold reads after a random seek: 64 KiB (time to first byte), 1 MiB and 8 MiB (total time), SPOOL_BENCH_SEEKS
 *   each (default 30), each in articles this server process never read (bench/lib/cold-offsets.ts, with a margin
 *   of SPOOL_BENCH_COLD_MARGIN_ARTICLES articles after each read, default 10, for any read-ahead), one read at a
 *   time with the pool idle in between; a read that did not move the pool's byte counter is counted as a cache hit.
 *   When a process has no fresh articles left, a new one starts; each new process first answers one 64 KiB read,
 *   reported on its own: every other process at once (a fresh process: its pool is still connecting over the
 *   link), the others once the pool holds the connection its idle floor keeps (docs/nntp.md) and nothing else, as
 *   a long-running server is between plays ("after a quiet spell"); then 4 parallel 8 MiB reads open its
 *   connections (not reported), as a long-running server has its connections open while streams read.
 * The 0 ms row shows what the proxy itself costs: the raw fetch through it beside the raw fetch straight to INN.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildServer } from '../tests/support/child-server.js';
import { tempDirsCleanup } from './lib/cleanup.js';
import { coldPicker } from './lib/cold-offsets.js';
import type { DelayProxyStats } from './lib/delay-proxy.js';
import { startDelayProxyProcess, type DelayProxyProcess } from './lib/delay-proxy-process.js';
import { benchFixture, type Fixture } from './lib/fixture.js';
import { quantile, timedGet } from './lib/http-client.js';
import { cpuPerGib, mbps, runWorkerAsync, type Measurement } from './lib/measure.js';
import {
  envNumber,
  GIB,
  MB,
  met,
  MIB,
  ms,
  resultTable,
  samplePool,
  tlsFront,
  waitIdleConnection,
  waitPoolIdle,
  type TlsFront,
  proxyQuickAck,
} from './lib/real-provider.js';
import { bootSpoolWith, buildServer, davUrl, importFixture, poolBytes } from './lib/spool-server.js';

const CONNECTIONS = 20;
const ARTICLE = 768_000;
const WARM_BYTES = 64 * MIB;
/** New server processes one family of cold reads may start before it gives up (bounded run time). */
const MAX_PROCESSES = 12;
/** One cold read; the sequential GET gets the default (10 minutes). */
const READ_TIMEOUT = 60_000;

interface Cold {
  values: number[];
  cacheHits: number;
  processes: number;
  /** Time to first byte of the first read of a new process read at once (its pool connects over the link). */
  freshFirstByte: number[];
  /** The same, once the process's pool held its idle connection (a long-running server between plays). */
  quietFirstByte: number[];
  maxInFlight: number;
}

interface AtRtt {
  rtt: number;
  raw: Measurement;
  /** CPU of the proxy process per GiB carried during the raw fetch. */
  proxyCpuPerGib: number;
  seqMBs: number;
  seqInFlight: { meanBusy: number; max: number; maxConnections: number };
  firstByte: Cold;
  oneMiB: Cold;
  eightMiB: Cold;
  link: DelayProxyStats;
}

export async function run(log: (m: string) => void): Promise<string> {
  const mb = envNumber('SPOOL_BENCH_LATENCY_MB', 512);
  const rtts = (process.env.SPOOL_BENCH_RTTS ?? '0,20,80').split(',').map(Number);
  const f = await benchFixture(log, mb);
  const front = await tlsFront(f);
  log('compiling the server (plain node, as in production)');
  const main = buildServer();
  const depth = envNumber('SPOOL_BENCH_RAW_DEPTH', 8);
  const direct = { host: front.host, port: front.port, tlsCaFile: front.caFile, connections: CONNECTIONS, depth };
  log("warming INN's page cache with one raw fetch over TLS (not reported)");
  await runWorkerAsync('raw', f, direct);
  log('raw fetch straight to INN over TLS (no proxy)');
  const straight = await runWorkerAsync('raw', f, direct);
  const results: AtRtt[] = [];
  for (const rtt of rtts) {
    const link = await startDelayProxyProcess({
      target: { host: front.host, port: front.port },
      rttMs: rtt,
      quickAck: proxyQuickAck(),
    });
    try {
      results.push(await atRtt(rtt, link, f, front, main, depth, log));
    } finally {
      await link.stop();
    }
  }
  return report(mb, f, depth, straight, results);
}

async function atRtt(
  rtt: number,
  link: DelayProxyProcess,
  f: Fixture,
  front: TlsFront,
  main: string,
  depth: number,
  log: (m: string) => void,
): Promise<AtRtt> {
  const host = '127.0.0.1';
  log(`RTT ${rtt} ms: raw fetch through the link`);
  const cpu0 = link.cpuSeconds();
  const raw = await runWorkerAsync('raw', f, {
    host,
    port: link.port,
    tlsCaFile: front.caFile,
    connections: CONNECTIONS,
    depth,
  });
  const cpu = link.cpuSeconds() - cpu0;
  const provider = { host, port: link.port, tlsCaFile: front.caFile, connections: CONNECTIONS };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-latency-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-latency-mnt-'));
  const removeDirs = tempDirsCleanup([dataDir, mnt]);
  const boot = () => bootSpoolWith(f, dataDir, mnt, main, { provider });
  try {
    log(`RTT ${rtt} ms: import, then a sequential GET in a warmed server`);
    let file = '';
    let seqMBs = 0;
    let seqInFlight = { meanBusy: 0, max: 0, maxConnections: 0 };
    const srv = await boot();
    try {
      file = await importFixture(srv, f);
      const url = davUrl(srv, file);
      const size = f.file.size;
      await timedGet(url, `${size - WARM_BYTES}-${size - 1}`);
      const sampler = samplePool(srv);
      const seq = await timedGet(url, `0-${size - WARM_BYTES - 1}`);
      seqInFlight = await sampler.stop();
      if (seq.bytes !== size - WARM_BYTES) throw new Error(`GET returned ${seq.bytes} bytes`);
      seqMBs = seq.bytes / (seq.totalMs / 1000) / MB;
    } finally {
      await srv.stop();
    }
    const cold = (name: string, length: number, metric: 'ttfbMs' | 'totalMs') => {
      log(`RTT ${rtt} ms: cold ${name} reads after a random seek`);
      return coldReads(f, file, boot, length, metric);
    };
    const firstByte = await cold('64 KiB', 64 * 1024, 'ttfbMs');
    const oneMiB = await cold('1 MiB', MIB, 'totalMs');
    const eightMiB = await cold('8 MiB', 8 * MIB, 'totalMs');
    return {
      rtt,
      raw,
      proxyCpuPerGib: cpu / (raw.bytes / GIB),
      seqMBs,
      seqInFlight,
      firstByte,
      oneMiB,
      eightMiB,
      link: await link.stats(),
    };
  } finally {
    removeDirs();
  }
}

async function coldReads(
  f: Fixture,
  file: string,
  boot: () => Promise<ChildServer>,
  length: number,
  metric: 'ttfbMs' | 'totalMs',
): Promise<Cold> {
  const seeks = envNumber('SPOOL_BENCH_SEEKS', 30);
  const margin = envNumber('SPOOL_BENCH_COLD_MARGIN_ARTICLES', 10) * ARTICLE;
  const spans = f.file.segments.map((s) => ({ start: s.offset, end: s.offset + s.size }));
  const out: Cold = { values: [], cacheHits: 0, processes: 0, freshFirstByte: [], quietFirstByte: [], maxInFlight: 0 };
  let srv: ChildServer | undefined;
  let pick: ((n: number) => number | null) | undefined;
  let sampler: ReturnType<typeof samplePool> | undefined;
  const range = (off: number, n: number) => `${off}-${Math.min(off + n, f.file.size) - 1}`;
  const retire = async () => {
    if (sampler) out.maxInFlight = Math.max(out.maxInFlight, (await sampler.stop()).max);
    sampler = undefined;
    await srv?.stop();
    srv = undefined;
  };
  try {
    while (out.values.length < seeks) {
      if (!srv) {
        if (out.processes >= MAX_PROCESSES) break;
        out.processes++;
        srv = await boot();
        pick = coldPicker(spans);
        const url = davUrl(srv, file);
        const first = pick(64 * 1024 + margin);
        const quiet = ++processesBooted % 2 === 0; // alternate across every cold series of the run
        if (quiet) await waitIdleConnection(srv);
        if (first !== null)
          (quiet ? out.quietFirstByte : out.freshFirstByte).push(
            (await timedGet(url, range(first, 64 * 1024), READ_TIMEOUT)).ttfbMs,
          );
        const warm = [0, 1, 2, 3].map(() => pick!(8 * MIB + margin)).filter((o) => o !== null);
        await Promise.all(warm.map((o) => timedGet(url, range(o, 8 * MIB), READ_TIMEOUT)));
        await waitPoolIdle(srv);
        sampler = samplePool(srv);
      }
      const off = pick!(length + margin);
      if (off === null) {
        await retire();
        continue;
      }
      await waitPoolIdle(srv);
      const before = await poolBytes(srv);
      const t = await timedGet(davUrl(srv, file), range(off, length), READ_TIMEOUT);
      if ((await poolBytes(srv)) === before) out.cacheHits++;
      out.values.push(t[metric]);
    }
  } finally {
    await retire();
  }
  return out;
}

/** Server processes started for cold reads so far in this run (their first reads alternate fresh / quiet). */
let processesBooted = 0;

function report(mb: number, f: Fixture, depth: number, straight: Measurement, results: AtRtt[]): string {
  const pq = (c: Cold, p: number) => (c.values.length === 0 ? NaN : quantile(c.values, p));
  const rows: Array<[string, string, string]> = [];
  const zero = results.find((r) => r.rtt === 0);
  rows.push([
    'raw fetch straight to INN over TLS (no proxy)',
    `${mbps(straight).toFixed(0)} MB/s, client ${cpuPerGib(straight).toFixed(2)} CPU-s/GiB`,
    '',
  ]);
  if (zero)
    rows.push([
      'proxy check, 0 ms: raw fetch through the proxy',
      `${mbps(zero.raw).toFixed(0)} MB/s (${((mbps(zero.raw) / mbps(straight)) * 100).toFixed(0)}% of straight), proxy ${zero.proxyCpuPerGib.toFixed(2)} CPU-s/GiB, chunk lag mean ${zero.link.meanLagMs.toFixed(2)} ms / max ${zero.link.maxLagMs.toFixed(1)} ms`,
      'not the bottleneck',
    ]);
  for (const r of results) {
    const at = `${r.rtt} ms`;
    const t20 = r.rtt === 20;
    const t80 = r.rtt === 80;
    const fb50 = pq(r.firstByte, 0.5);
    const fb99 = pq(r.firstByte, 0.99);
    const e50 = pq(r.eightMiB, 0.5);
    const e99 = pq(r.eightMiB, 0.99);
    const ratio = r.seqMBs / mbps(r.raw);
    const n = (c: Cold) => `${c.values.length} seeks, ${c.processes} processes, ${c.cacheHits} cache hits`;
    rows.push([
      `${at}: cold first byte, 64 KiB at a random offset, p50 / p99`,
      `${ms(fb50)} / ${ms(fb99)} (${n(r.firstByte)})`,
      t20
        ? `p50 <= 30, p99 <= 60 ms: ${met(fb50 <= 30 && fb99 <= 60)}`
        : t80
          ? `p50 <= 120 ms: ${met(fb50 <= 120)}`
          : '',
    ]);
    rows.push([
      `${at}: 1 MiB after a random seek, p50 / p99`,
      `${ms(pq(r.oneMiB, 0.5))} / ${ms(pq(r.oneMiB, 0.99))} (${n(r.oneMiB)})`,
      '',
    ]);
    rows.push([
      `${at}: 8 MiB after a random seek, p50 / p99`,
      `${ms(e50)} / ${ms(e99)} (${n(r.eightMiB)}; max ${r.eightMiB.maxInFlight} articles in flight)`,
      t20
        ? `p50 <= 60, p99 <= 120 ms: ${met(e50 <= 60 && e99 <= 120)}`
        : t80
          ? `p50 <= 200 ms: ${met(e50 <= 200)}`
          : '',
    ]);
    rows.push([
      `${at}: sequential WebDAV GET vs raw fetch through the same link`,
      `${r.seqMBs.toFixed(0)} MB/s vs ${mbps(r.raw).toFixed(0)} MB/s: **${(ratio * 100).toFixed(0)}%**`,
      t20 ? `>= 90%: ${met(ratio >= 0.9)}` : '',
    ]);
    rows.push([
      `${at}: articles in flight during the sequential GET (pool metrics every 20 ms)`,
      `mean ${r.seqInFlight.meanBusy.toFixed(1)}, max ${r.seqInFlight.max}, on up to ${r.seqInFlight.maxConnections} connections`,
      '',
    ]);
    const fresh = r.firstByte.freshFirstByte.concat(r.oneMiB.freshFirstByte, r.eightMiB.freshFirstByte);
    rows.push([
      `${at}: first byte of a fresh server process (its pool still connecting: TCP, TLS, AUTHINFO over the link), p50 / max`,
      fresh.length ? `${ms(quantile(fresh, 0.5))} / ${ms(Math.max(...fresh))} (${fresh.length} processes)` : '-',
      '',
    ]);
    const quiet = r.firstByte.quietFirstByte.concat(r.oneMiB.quietFirstByte, r.eightMiB.quietFirstByte);
    rows.push([
      `${at}: first byte after a quiet spell (a process whose pool holds only its idle connection), p50 / max`,
      quiet.length ? `${ms(quantile(quiet, 0.5))} / ${ms(Math.max(...quiet))} (${quiet.length} processes)` : '-',
      '',
    ]);
    rows.push([
      `${at}: the link (proxy)`,
      `${r.link.connections} connections, ${(r.link.bytesDown / GIB).toFixed(2)} GiB down, chunk lag mean ${r.link.meanLagMs.toFixed(2)} ms / max ${r.link.maxLagMs.toFixed(1)} ms, ${r.link.windowStalls} window stalls; proxy ${r.proxyCpuPerGib.toFixed(2)} CPU-s/GiB`,
      '',
    ]);
  }
  return [
    `File: ${mb} MiB in ${f.file.segments.length} articles of 768,000 bytes on the local INN 2.7 through its TLS front (\`nnrpd -S\`), behind the delay proxy (bench/lib/delay-proxy.ts). Server: the compiled main.js, default streaming settings, one provider with ${CONNECTIONS} connections over TLS (certificate checked); client: curl. Raw fetch: ${CONNECTIONS} connections x ${depth} BODY in flight, no decode.`,
    '',
    resultTable(rows),
  ].join('\n');
}
