/**
 * Health benchmarks (docs/performance.md, "Health"), against the local INN on loopback:
 *  1. Full STAT of a release of 50 GiB's article count (69,906 articles of 768,000 bytes): the checker's STAT of
 *     every article through the real pool on the health lane, pipelined (target >= 20,000 articles/s), through the
 *     pool's STAT batch and, for comparison, one stat() per article; CPU per STAT is Spool's own cost. STAT never
 *     reads a body, so the articles are posted small (64 decoded bytes each) to keep the fixture quick to post.
 *  2. A health pass over 10,000 files of 50 articles, sampled (health.segment_sample_percentage, default 5%, plus
 *     first, last and 3 BODY spot-checks each), through the real health domain (LMDB records, VFS tree, worker with
 *     max_concurrent_jobs 10). The files reuse the posted articles (file k starts at article 50k mod 69,906).
 * SPOOL_BENCH_HEALTH_FILES sets the file count of (2).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { statMany } from '../appliance/articles/index.js';
import { systemClock } from '../appliance/clock/clock.js';
import { ConfigService } from '../appliance/config/index.js';
import { createHealth, openHealthStore } from '../appliance/health/index.js';
import { checkFile } from '../appliance/health/health.checker.js';
import { memoryLogger } from '../appliance/logging/logger.js';
import { NntpPool } from '../appliance/nntp/index.js';
import { openInnConnection } from './lib/fixture.js';
import { openStore } from '../appliance/store/index.js';
import { LmdbTreeStore } from '../appliance/vfs/tree.store.js';
import { VfsService } from '../appliance/vfs/vfs.service.js';
import type { PostedFile } from '../tests/support/inn/poster.js';
import { ensureInn, type InnServer } from '../tests/support/inn/server.js';
import { innProvider } from '../tests/support/inn/provider.js';
import { openTreeNodes } from '../appliance/vfs/tree-nodes.store.js';

/** A 50 GiB release in 768,000-byte articles. */
const ARTICLES = Math.ceil((50 * 1024 ** 3) / 768_000);
const SMALL = 64;
const FILES = Number(process.env.SPOOL_BENCH_HEALTH_FILES ?? 10_000);
const PER_FILE = 50;

async function fixture(inn: InnServer, log: (m: string) => void): Promise<PostedFile> {
  const cache = path.join(inn.root, `bench-health-${ARTICLES}.json`);
  if (existsSync(cache)) {
    const file = JSON.parse(readFileSync(cache, 'utf8')) as PostedFile;
    const pool = new NntpPool([innProvider(inn)]);
    const there = await pool.stat(`<${file.messageIds.at(-1)}>`).finally(() => pool.close());
    if (there) return file;
  }
  log(`posting ${ARTICLES} articles of ${SMALL} bytes to INN (once; cached in ${cache})`);
  const t0 = performance.now();
  const file = await inn.postFile('spool-bench-health.bin', randomBytes(ARTICLES * SMALL), {
    articleSize: SMALL,
    connections: 8,
  });
  log(`posted in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  writeFileSync(cache, JSON.stringify(file));
  return file;
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/** The same STATs on raw connections (no pool, no checker): what INN and loopback allow on this machine. */
async function rawStat(inn: InnServer, file: PostedFile, log: (m: string) => void): Promise<string> {
  const connections = 8;
  const depth = 16;
  const conns = await Promise.all(Array.from({ length: connections }, () => openInnConnection(inn)));
  try {
    const ids = file.messageIds.map((id) => `<${id}>`);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      conns.flatMap((c) =>
        Array.from({ length: depth }, async () => {
          while (next < ids.length) await c.stat(ids[next++]!);
        }),
      ),
    );
    const secs = (performance.now() - t0) / 1000;
    log(`raw STAT: ${(ids.length / secs).toFixed(0)} articles/s`);
    return `| Raw pipelined STAT of the same ${ids.length.toLocaleString('en')} articles, ${connections} connections x ${depth} deep (no pool) | ${secs.toFixed(2)} s | ${(ids.length / secs).toFixed(0)} articles/s | | |`;
  } finally {
    await Promise.all(conns.map((c) => c.quit()));
  }
}

async function fullStat(inn: InnServer, file: PostedFile, log: (m: string) => void): Promise<string[]> {
  const rows: string[] = [];
  const segments = file.messageIds.map((messageId, i) => ({ messageId, start: i * SMALL, end: (i + 1) * SMALL }));
  // The checker's path: the pool's STAT batch. `per-article`: the same checker over stat() one article at a time
  // (what it did before the batch), to show the difference in Spool's CPU per STAT on the same machine and minute.
  const runs: { connections: number; path: 'batch' | 'per-article' }[] = [
    { connections: 8, path: 'batch' },
    { connections: 8, path: 'per-article' },
    { connections: 8, path: 'batch' },
    { connections: 8, path: 'per-article' },
    { connections: 16, path: 'batch' },
  ];
  for (const { connections, path: via } of runs) {
    const pool = new NntpPool([innProvider(inn, { max_connections: connections })], { statPipelineDepth: 16 });
    const client = via === 'batch' ? pool : { stat: pool.stat.bind(pool), body: pool.body.bind(pool) };
    try {
      // Warm: connections open, INN's history in the page cache.
      await statMany(pool, file.messageIds.slice(0, 2000), 'health', new AbortController().signal, 256);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const result = await checkFile(client, {
        segments,
        checkAll: true,
        samplePercent: 100,
        signal: new AbortController().signal,
      });
      const secs = (performance.now() - t0) / 1000;
      const cpu = cpuSeconds(process.cpuUsage(cpu0));
      if (result.kind !== 'verdict' || result.status !== 'healthy') throw new Error(JSON.stringify(result));
      const rate = result.checked / secs;
      const us = (cpu * 1e6) / result.checked;
      log(`full STAT, ${connections} connections, ${via}: ${rate.toFixed(0)} articles/s, ${us.toFixed(1)} µs CPU each`);
      rows.push(
        `| Full STAT of ${result.checked.toLocaleString('en')} articles (50 GiB release), ${connections} connections x 16 deep, ${via} | ${secs.toFixed(2)} s | ${rate.toFixed(0)} articles/s | ${cpu.toFixed(2)} s = ${us.toFixed(1)} µs/STAT | >= 20,000/s |`,
      );
    } finally {
      await pool.close();
    }
  }
  return rows;
}

async function healthPass(inn: InnServer, file: PostedFile, log: (m: string) => void): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-bench-health-'));
  const configPath = path.join(dir, 'config.yaml');
  writeFileSync(configPath, stringify({ health: { enabled: false, max_concurrent_jobs: 10 } }));
  const logger = memoryLogger();
  const config = await ConfigService.open({ configPath, dataDir: dir, logger });
  const store = openStore({ rootPath: dir });
  const pool = new NntpPool([innProvider(inn)]);
  const healthStore = openHealthStore(store);
  const vfs = new VfsService({
    tree: new LmdbTreeStore({ nodes: openTreeNodes(store), layouts: store.openDb('vfs-layouts') }),
    sidecarDir: path.join(dir, 'sc'),
    health: healthStore.verdicts,
  });
  const health = createHealth({ store: healthStore, config, vfs, client: pool, clock: systemClock, logger });
  try {
    const n = file.messageIds.length;
    const t0 = performance.now();
    for (let job = 0; job < FILES / 100; job++) {
      const files = Array.from({ length: 100 }, (_, k) => {
        const f = job * 100 + k;
        const segments = Array.from({ length: PER_FILE }, (_, i) => ({
          messageId: file.messageIds[(f * PER_FILE + i) % n]!,
          start: i * SMALL,
          end: (i + 1) * SMALL,
        }));
        return { name: `f${f}.mkv`, size: PER_FILE * SMALL, layout: { size: PER_FILE * SMALL, segments } };
      });
      await vfs.addJob({ category: 'bench', jobName: `job${job}`, files });
    }
    while ((await health.service.stats()).total < FILES) await new Promise((r) => setTimeout(r, 20));
    log(`${FILES} files and their records written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    const all = (await health.service.list({ limit: 0, offset: 0, sortBy: 'created_at', sortOrder: 'asc' })).items;
    await Promise.all(all.map((r) => health.service.check(r.path, undefined, false)));
    for (;;) {
      const w = await health.service.workerStatus();
      if (health.runner.idle && w.pending_manual_checks === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const secs = (performance.now() - t1) / 1000;
    const cpu = cpuSeconds(process.cpuUsage(cpu0));
    const stats = await health.service.stats();
    if (stats.healthy !== FILES) throw new Error(`expected ${FILES} healthy, got ${JSON.stringify(stats)}`);
    log(`health pass: ${FILES} files in ${secs.toFixed(1)} s`);
    return [
      `| Health pass, ${FILES.toLocaleString('en')} files x ${PER_FILE} articles, 5% sample + first/last + 3 BODY each, 10 checks at once | ${secs.toFixed(1)} s | ${(FILES / secs).toFixed(0)} files/s | ${cpu.toFixed(1)} s | |`,
    ];
  } finally {
    await health.close();
    await pool.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(log: (m: string) => void = console.error): Promise<string> {
  const inn = await ensureInn();
  const file = await fixture(inn, log);
  const rows = [
    await rawStat(inn, file, log),
    ...(await fullStat(inn, file, log)),
    ...(await healthPass(inn, file, log)),
  ];
  return [
    'Health benchmark: INN 2.7 on loopback, plain TCP, the real pool (health lane) and checker; CPU is this process (pool and checker), INN runs beside it on the same 2 cores.',
    '',
    '| What | Time | Rate | CPU | Target |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
