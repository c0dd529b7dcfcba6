/**
 * Playback under a library scan, and ten players sharing a link (issue 22 part 3, issue 24 part 4; `npm run bench
 * -- contention`). The local INN behind the emulated provider link (bench/lib/delay-proxy.ts in its own process):
 * 20 ms round trip, a rate cap per connection, a provider of 8 connections; the compiled server reads through its
 * FUSE mount, a fresh process (cold article cache) per scenario.
 *
 * - Player (bench/lib/paced-player.ts, a process of its own): a 400 MiB file, the header (256 KiB) and the index
 *   (the last 1 MiB), then sequential 1 MiB reads played at 10 MB/s. Start: open until the header, the index and
 *   the first SPOOL_BENCH_CONTENTION_START_MB (default 10) MiB are buffered. Stall: the play position reached the
 *   bytes read (play resumes with 1 s of media buffered); counted with their lengths.
 * - Scan: 40 MP4 files (bench/lib/media-fixture.ts, 16 MiB each, the moov index at the end) probed by the real
 *   `ffprobe -show_format -show_streams`, 8 at a time, as Jellyfin's and Plex's scanners do: each reads the head,
 *   the end of the media, the moov at the tail, then the first packets.
 * - Scenarios: the player alone; the scan alone; the scan, with the player started SCAN_LEAD_MS into it.
 * - Ten players (issue 24): ten paced players at 2 MB/s each (a 16 Mbit/s film), each from its own tenth of the
 *   400 MiB file, on a link that carries them all (8 x 4 MB/s) and on one that cannot (8 x 1.5 MB/s, 60% of what
 *   they want): stalls per player, delivered rate against the target, and the fairness (least / most delivered).
 *
 * SPOOL_CONTENTION_BASELINE=<a checkout of an older commit, with node_modules and its native addons built> runs
 * the player scenarios on that build too (compiled into <checkout>/.bench-dist).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isMounted } from '../appliance/fuse/mount.service.js';
import { buildNzb, type PostedFile } from '../tests/support/inn/poster.js';
import type { ChildServer } from '../tests/support/child-server.js';
import { cleanupOnSignal, tempDirsCleanup } from './lib/cleanup.js';
import { startDelayProxyProcess, type DelayProxyProcess } from './lib/delay-proxy-process.js';
import { benchFixture, type Fixture } from './lib/fixture.js';
import { scanLibrary } from './lib/media-fixture.js';
import type { PacedPlan, PacedResult } from './lib/paced-player.js';
import { envNumber, met, MIB, MB, proxyQuickAck, resultTable } from './lib/real-provider.js';
import { bootSpoolWith, buildServer, importFixture, importNzb, startMount } from './lib/spool-server.js';

const run = promisify(execFile);
const CONNECTIONS = 8;
const RTT_MS = 20;
const PLAYER_MB = 400;
const SCAN_FILES = 40;
const SCAN_PARALLEL = 8;
/** The scan runs this long before the player starts (a scan under way when someone presses play). */
const SCAN_LEAD_MS = 1_000;

interface Setup {
  f: Fixture;
  main: string;
  dataDir: string;
  mnt: string;
  player: string;
  scan: string[];
}

interface Scan {
  ms: number;
  failed: number;
}

interface Contention {
  build: string;
  alone: PacedResult;
  scanAlone: Scan;
  withScan: PacedResult;
  scanWithPlayer: Scan;
}

export async function run_(log: (m: string) => void): Promise<string> {
  const rate = envNumber('SPOOL_BENCH_CONTENTION_CONN_MBS', 3) * MB;
  const f = await benchFixture(log, PLAYER_MB);
  const library = await scanLibrary(f.inn, log, SCAN_FILES);
  log('compiling the server (plain node, as in production)');
  const builds: Array<[string, string]> = [['this build', buildServer()]];
  const baseline = process.env.SPOOL_CONTENTION_BASELINE;
  if (baseline) builds.push([`baseline (${path.basename(baseline)})`, buildBaseline(baseline)]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-contention-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-contention-mnt-'));
  const removeDirs = tempDirsCleanup([mnt, dataDir]);
  const unmount = () => (isMounted(mnt) ? run('fusermount3', ['-uz', mnt]).catch(() => undefined) : Promise.resolve());
  const release = cleanupOnSignal(unmount);
  try {
    const contention: Contention[] = [];
    let setup: Setup | undefined;
    await withLink(f, rate, async (link) => {
      setup = await importAll(f, library, builds[0]![1], dataDir, mnt, link, log);
      // SPOOL_BENCH_CONTENTION_ONLY=players: the ten players alone (=scan: the player and the scan alone)
      for (const [name, main] of process.env.SPOOL_BENCH_CONTENTION_ONLY === 'players' ? [] : builds) {
        log(`${name}: the player alone, the scan alone, the scan with the player`);
        contention.push(await contentionRounds({ ...setup, main }, name, link, log));
      }
    });
    const ten: TenPlayers[] = [];
    // SPOOL_BENCH_CONTENTION_ONLY=scan: the player and the scan alone
    const links = [
      ['a link that carries them all', 4],
      ['a link that cannot', 1.5],
    ] as const;
    for (const [label, mbs] of process.env.SPOOL_BENCH_CONTENTION_ONLY === 'scan' ? [] : links) {
      await withLink(f, mbs * MB, async (link) => {
        for (const [build, main] of builds) {
          log(`${build}: ten players at 2 MB/s on ${label} (${CONNECTIONS} x ${mbs} MB/s)`);
          const players = await tenPlayers({ ...setup!, main }, link);
          const at = players.flatMap((p) => p.stallsAt.map((t, i) => `${sec(t)} (${sec(p.stalls[i]!)})`));
          log(`  stalls began at: ${at.join(', ') || 'none'}`);
          ten.push({ build, label, linkMBs: CONNECTIONS * mbs, players });
        }
      });
    }
    return report(rate, contention, ten);
  } finally {
    await unmount();
    release();
    removeDirs();
  }
}
export { run_ as run };

async function withLink(f: Fixture, connRate: number, fn: (link: DelayProxyProcess) => Promise<void>): Promise<void> {
  const link = await startDelayProxyProcess({
    target: { host: f.inn.host, port: f.inn.port },
    rttMs: RTT_MS,
    connectionBytesPerSec: connRate,
    quickAck: proxyQuickAck(),
  });
  try {
    await fn(link);
  } finally {
    await link.stop();
  }
}

function boot(s: Pick<Setup, 'f' | 'dataDir' | 'mnt'>, main: string, link: DelayProxyProcess): Promise<ChildServer> {
  const provider = { host: '127.0.0.1', port: link.port, connections: CONNECTIONS };
  return bootSpoolWith(s.f, s.dataDir, s.mnt, main, { provider });
}

async function importAll(
  f: Fixture,
  library: PostedFile[],
  main: string,
  dataDir: string,
  mnt: string,
  link: DelayProxyProcess,
  log: (m: string) => void,
): Promise<Setup> {
  log(`importing the ${PLAYER_MB} MiB film and the ${library.length} files of the library`);
  const srv = await boot({ f, dataDir, mnt }, main, link);
  try {
    const player = await importFixture(srv, f);
    const folder = await importNzb(srv, buildNzb(library, f.inn.group, 'Spool Bench <bench@spool.test>'));
    return { f, main, dataDir, mnt, player, scan: library.map((l) => `${folder}/${l.name}`) };
  } finally {
    await srv.stop();
  }
}

/** A fresh server (cold cache) with its mount up; stopped (and unmounted) after `fn`. */
async function withServer<T>(s: Setup, link: DelayProxyProcess, fn: () => Promise<T>): Promise<T> {
  const srv = await boot(s, s.main, link);
  try {
    await startMount(srv);
    return await fn();
  } finally {
    await srv.stop();
    if (isMounted(s.mnt)) await run('fusermount3', ['-uz', s.mnt]).catch(() => undefined);
  }
}

async function contentionRounds(
  s: Setup,
  build: string,
  link: DelayProxyProcess,
  log: (m: string) => void,
): Promise<Contention> {
  const plan: PacedPlan = {
    size: s.f.file.size,
    header: 256 * 1024,
    index: MIB,
    from: 256 * 1024,
    rate: 10 * MB,
    startBytes: envNumber('SPOOL_BENCH_CONTENTION_START_MB', 10) * MIB,
    playBytes: envNumber('SPOOL_BENCH_CONTENTION_PLAY_MB', 200) * MIB,
    maxBuffer: 32 * MIB,
    rebuffer: 10 * MB,
  };
  const film = path.join(s.mnt, s.player);
  const alone = await withServer(s, link, () => pacedPlay(film, plan));
  log(`  alone: start ${alone.startMs.toFixed(0)} ms, ${stallText(alone.stalls)}`);
  const scanAlone = await withServer(s, link, () => scan(s));
  log(`  scan alone: ${scanAlone.ms.toFixed(0)} ms`);
  const [withScan, scanWithPlayer] = await withServer(s, link, async () => {
    const scanning = scan(s);
    await new Promise((r) => setTimeout(r, SCAN_LEAD_MS));
    return Promise.all([pacedPlay(film, plan), scanning]);
  });
  log(`  with the scan: start ${withScan.startMs.toFixed(0)} ms, ${stallText(withScan.stalls)}`);
  log(`  scan with the player: ${scanWithPlayer.ms.toFixed(0)} ms, ${scanWithPlayer.failed} failed`);
  return { build, alone, scanAlone, withScan, scanWithPlayer };
}

/** ffprobe of every library file, SCAN_PARALLEL at a time: the time it took, and probes that failed. */
async function scan(s: Setup): Promise<Scan> {
  const t0 = performance.now();
  const queue = [...s.scan];
  let failed = 0;
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const args = ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path.join(s.mnt, file)];
      try {
        const { stdout } = await run('ffprobe', args, { timeout: 120_000, maxBuffer: 4 * MIB });
        const format = (JSON.parse(stdout) as { format?: { duration?: string } }).format;
        if (!(Number(format?.duration) > 0)) failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: SCAN_PARALLEL }, worker));
  return { ms: performance.now() - t0, failed };
}

async function pacedPlay(file: string, plan: PacedPlan): Promise<PacedResult> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/paced-player.ts', file, JSON.stringify(plan)],
    { timeout: 600_000, killSignal: 'SIGKILL' },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as PacedResult;
}

interface TenPlayers {
  build: string;
  label: string;
  linkMBs: number;
  players: PacedResult[];
}

const TEN_RATE = 2 * MB;
const TEN_PLAY = 24 * MIB;

async function tenPlayers(s: Setup, link: DelayProxyProcess): Promise<PacedResult[]> {
  const tenth = Math.floor(s.f.file.size / 10);
  return withServer(s, link, () =>
    Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        pacedPlay(path.join(s.mnt, s.player), {
          size: s.f.file.size,
          from: i * tenth,
          rate: TEN_RATE,
          startBytes: 2 * MB,
          playBytes: TEN_PLAY,
          maxBuffer: 16 * MIB,
          rebuffer: 2 * MB,
        }),
      ),
    ),
  );
}

/** Compiles an older checkout's server into its own folder (its imports resolve against its node_modules). */
function buildBaseline(root: string): string {
  const out = path.join(root, '.bench-dist');
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
  return path.join(out, 'appliance/main.js');
}

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const stallText = (stalls: number[]) =>
  stalls.length === 0
    ? 'no stall'
    : `${stalls.length} stall(s), ${sec(stalls.reduce((a, b) => a + b, 0))} in all (${stalls.map(sec).join(', ')})`;

function report(rate: number, rounds: Contention[], ten: TenPlayers[]): string {
  const rows: Array<[string, string, string]> = [];
  for (const r of rounds) {
    const ratio = r.withScan.startMs / r.alone.startMs;
    rows.push([`${r.build}: start, player alone`, sec(r.alone.startMs) + `; ${stallText(r.alone.stalls)}`, '']);
    rows.push([
      `${r.build}: start with the scan`,
      `${sec(r.withScan.startMs)} (**${ratio.toFixed(2)}x** alone)`,
      `<= 1.2x: ${met(ratio <= 1.2)}`,
    ]);
    rows.push([
      `${r.build}: stalls with the scan`,
      stallText(r.withScan.stalls),
      `none: ${met(r.withScan.stalls.length === 0)}`,
    ]);
    rows.push([
      `${r.build}: scan of ${SCAN_FILES} files (alone / with the player)`,
      `${sec(r.scanAlone.ms)} / ${sec(r.scanWithPlayer.ms)}; ${r.scanWithPlayer.failed} probes failed`,
      `finishes: ${met(r.scanWithPlayer.failed === 0 && r.scanAlone.failed === 0)}`,
    ]);
  }
  for (const t of ten) {
    const rates = t.players.map((p) => p.readBytes / (p.totalMs / 1000) / MB);
    const stalls = t.players.map((p) => p.stalls.length);
    const fair = Math.min(...rates) / Math.max(...rates);
    const wanted = (10 * TEN_RATE) / MB;
    rows.push([
      `${t.build}: ten players at 2 MB/s (${wanted} MB/s) on ${t.label} (${t.linkMBs} MB/s)`,
      `delivered ${rates.map((r) => r.toFixed(2)).join(', ')} MB/s; stalls per player ${stalls.join(', ')}; ` +
        `least/most **${fair.toFixed(2)}**`,
      t.linkMBs > wanted ? `no stall: ${met(stalls.every((n) => n === 0))}` : `fair (>= 0.8): ${met(fair >= 0.8)}`,
    ]);
  }
  return [
    `Link: INN behind the delay proxy, ${RTT_MS} ms round trip, ${(rate / MB).toFixed(1)} MB/s per connection, ` +
      `${CONNECTIONS} connections, plain NNTP; the compiled server, default settings, read through its FUSE mount, ` +
      `a fresh process per scenario. Player: ${PLAYER_MB} MiB, header and index, then 10 MB/s; scan: ` +
      `${SCAN_FILES} MP4s of 16 MiB, ffprobe ${SCAN_PARALLEL} at a time, the player started ${SCAN_LEAD_MS} ms ` +
      'into it. Delivered rate of a ten-player run: bytes read over the time from open to the last byte played.',
    '',
    resultTable(rows),
  ].join('\n');
}
