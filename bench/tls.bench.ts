/**
 * TLS benchmark (issue 15; `npm run bench -- tls`, SPOOL_BENCH_TLS_MB=512 by default): what implicit TLS costs, as
 * a real provider on port 563 is reached. The same fixture on the same INN is read over plain TCP (innd) and over
 * TLS (`nnrpd -S` with a throwaway CA, tests/support/inn/tls.ts), in the same rounds, by:
 * - the raw pipelined BODY fetch (no decode; bench/lib/fetch-worker.ts in its own process),
 * - Spool's pool alone (fetch + yEnc decode + CRC, same worker),
 * - the real server (compiled main.js, bench/lib/spool-server.ts) answering a sequential WebDAV GET to curl: its
 *   CPU seconds per GiB cover decode, CRC, TLS and HTTP. As in the stream bench, each GET runs in a fresh server
 *   whose JIT was first warmed on the file's last 64 MiB, and measures the rest.
 * Every client uses 8 connections, 4 commands deep for the workers (the server: its default pipeline).
 * SPOOL_TLS_ROUNDS rounds (default 3) alternate plain and TLS; the table shows medians.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tempDirsCleanup } from './lib/cleanup.js';
import { curlWithCpu } from './lib/cpu-budget.js';
import { benchFixture, type Fixture } from './lib/fixture.js';
import { quantile, timedGet } from './lib/http-client.js';
import { cpuPerGib, mbps, runWorkerAsync, type WorkerTarget } from './lib/measure.js';
import { envNumber, GIB, MB, MIB, met, resultTable, tlsFront } from './lib/real-provider.js';
import { bootSpoolWith, buildServer, davUrl, importFixture, type ProviderTarget } from './lib/spool-server.js';

const CONNECTIONS = 8;
const WARM_BYTES = 64 * MIB;

interface Figures {
  rawMBs: number;
  rawCpu: number;
  poolMBs: number;
  poolCpu: number;
  davMBs: number;
  serverCpu: number;
  curlCpu: number;
}

export async function run(log: (m: string) => void): Promise<string> {
  const mb = envNumber('SPOOL_BENCH_TLS_MB', 512);
  const rounds = envNumber('SPOOL_TLS_ROUNDS', 3);
  const f = await benchFixture(log, mb);
  const front = await tlsFront(f);
  log('compiling the server (plain node, as in production)');
  const main = buildServer();
  const transports: Array<{ name: 'plain' | 'tls'; provider: ProviderTarget; worker: WorkerTarget }> = [
    {
      name: 'plain',
      provider: { host: f.inn.host, port: f.inn.port, connections: CONNECTIONS },
      worker: { connections: CONNECTIONS, depth: 4 },
    },
    {
      name: 'tls',
      provider: { host: front.host, port: front.port, tlsCaFile: front.caFile, connections: CONNECTIONS },
      worker: { host: front.host, port: front.port, tlsCaFile: front.caFile, connections: CONNECTIONS, depth: 4 },
    },
  ];
  const dirs = transports.map(() => mkdtempSync(path.join(tmpdir(), 'spool-bench-tls-')));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-tls-mnt-'));
  const removeDirs = tempDirsCleanup([...dirs, mnt]);
  try {
    log("warming INN's page cache with one raw fetch (not reported)");
    await runWorkerAsync('raw', f);
    const files: string[] = [];
    for (const [i, t] of transports.entries()) {
      log(`importing the fixture into the ${t.name} server's data dir`);
      const srv = await bootSpoolWith(f, dirs[i]!, mnt, main, { provider: t.provider });
      try {
        files.push(await importFixture(srv, f));
      } finally {
        await srv.stop();
      }
    }
    const results: Record<'plain' | 'tls', Figures[]> = { plain: [], tls: [] };
    for (let r = 1; r <= rounds; r++) {
      for (const [i, t] of transports.entries()) {
        log(`round ${r}/${rounds}, ${t.name}: raw fetch, pool fetch + decode, WebDAV GET in a fresh warmed server`);
        results[t.name].push(await measure(f, t.provider, t.worker, dirs[i]!, mnt, main, files[i]!));
      }
    }
    return report(mb, f, results);
  } finally {
    removeDirs();
  }
}

async function measure(
  f: Fixture,
  provider: ProviderTarget,
  worker: WorkerTarget,
  dataDir: string,
  mnt: string,
  main: string,
  file: string,
): Promise<Figures> {
  const raw = await runWorkerAsync('raw', f, worker);
  const pool = await runWorkerAsync('pool', f, worker);
  const srv = await bootSpoolWith(f, dataDir, mnt, main, { provider });
  try {
    const url = davUrl(srv, file);
    const size = f.file.size;
    await timedGet(url, `${size - WARM_BYTES}-${size - 1}`);
    const cpu0 = srv.cpuSeconds();
    const dav = await curlWithCpu(url, `0-${size - WARM_BYTES - 1}`);
    if (dav.bytes !== size - WARM_BYTES) throw new Error(`GET returned ${dav.bytes} of ${size - WARM_BYTES} bytes`);
    const gib = dav.bytes / GIB;
    return {
      rawMBs: mbps(raw),
      rawCpu: cpuPerGib(raw),
      poolMBs: mbps(pool),
      poolCpu: cpuPerGib(pool),
      davMBs: dav.bytes / dav.seconds / MB,
      serverCpu: (srv.cpuSeconds() - cpu0) / gib,
      curlCpu: dav.cpuSeconds / gib,
    };
  } finally {
    await srv.stop();
  }
}

function report(mb: number, f: Fixture, results: Record<'plain' | 'tls', Figures[]>): string {
  const med = (t: 'plain' | 'tls', pick: (x: Figures) => number) => quantile(results[t].map(pick), 0.5);
  const pair = (pick: (x: Figures) => number, digits: number, unit: string) =>
    `${med('tls', pick).toFixed(digits)} ${unit} (plain TCP ${med('plain', pick).toFixed(digits)}; TLS adds ${(med('tls', pick) - med('plain', pick)).toFixed(digits)})`;
  const rate = (pick: (x: Figures) => number) =>
    `${med('tls', pick).toFixed(0)} MB/s (plain TCP ${med('plain', pick).toFixed(0)}: ${((med('tls', pick) / med('plain', pick)) * 100).toFixed(0)}%)`;
  const perRound = (['plain', 'tls'] as const).flatMap((t) =>
    results[t].map(
      (x, i) =>
        `| ${i + 1} | ${t} | ${x.rawMBs.toFixed(0)} / ${x.rawCpu.toFixed(2)} | ${x.poolMBs.toFixed(0)} / ${x.poolCpu.toFixed(2)} | ${x.davMBs.toFixed(0)} / ${x.serverCpu.toFixed(2)} | ${x.curlCpu.toFixed(2)} |`,
    ),
  );
  const streamTls = med('tls', (x) => x.serverCpu);
  return [
    `File: ${mb} MiB in ${f.file.segments.length} articles of 768,000 bytes on the local INN 2.7; plain TCP to innd, TLS to \`nnrpd -S\` (TLS 1.3, certificate of a throwaway CA, checked). ${CONNECTIONS} connections for every client. Figures: MB/s / CPU-s per GiB of the process doing the work.`,
    '',
    '| round | link | raw BODY fetch | pool fetch + decode | WebDAV GET (server) | curl CPU-s/GiB |',
    '|---|---|---|---|---|---|',
    ...perRound,
    '',
    resultTable([
      [
        'raw BODY fetch, no decode: client CPU-s/GiB over TLS (medians of the rounds)',
        pair((x) => x.rawCpu, 2, 'CPU-s/GiB'),
        '',
      ],
      ['pool alone (fetch + yEnc decode + CRC): CPU-s/GiB over TLS', pair((x) => x.poolCpu, 2, 'CPU-s/GiB'), ''],
      ['pool alone: throughput over TLS', rate((x) => x.poolMBs), ''],
      [
        '**whole stream over TLS: server CPU-s/GiB of a sequential WebDAV GET** (decode, CRC, TLS, HTTP)',
        `**${pair((x) => x.serverCpu, 2, 'CPU-s/GiB')}**`,
        `<= 1.5 CPU-s/GiB: ${met(streamTls <= 1.5)}`,
      ],
      ['sequential WebDAV GET throughput over TLS', rate((x) => x.davMBs), ''],
    ]),
  ].join('\n');
}
