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
 * - In a container (issue 31): the player alone and with the scan again, Spool in its own pid namespace
 *   (`unshare --pid --fork`) while the player and ffprobe read through the mount from outside it: every reader
 *   reaches Spool as pid 0, with no process name, so only each open's own reads can tell a player from a probe.
 * - Ten viewers of one media server (issue 31): ten paced players over WebDAV at 4 MB/s each (header, index, then
 *   an open-ended GET from its own tenth of the film), all from one address with one user agent (`rclone/...`, as
 *   rclone or a media server serving several people), alone and under the scan (ffprobe over WebDAV with the same
 *   user agent), on a link that carries twice the demand (8 x 10 MB/s): each player's start against its start
 *   alone, stalls, and what the scanner lane fetched against what scanners were served.
 * - Two CPU priorities for every scan beside a player (bench/lib/lowest-priority.ts): the probes at the same
 *   priority as everything else, and at the lowest the host gives (a CPU cgroup of least weight), where their own
 *   processes take only the CPU nothing else wants, as when the media server runs on a host of its own. The ten
 *   viewers also play beside a control at both priorities: the same probes of a local file, which Spool never
 *   sees, so what the probes' processes cost the viewers is measured apart from how Spool serves them. The
 *   viewers play alone after a warm-up pass (INN's page cache) and again after the scans; a viewer's start alone
 *   is the mean of the two, so the machine's drift over the run moves the reference, not one side of the ratio.
 *
 * SPOOL_BENCH_CONTENTION_ONLY=<comma list of scan, container, players, viewers> runs those parts only;
 * SPOOL_BENCH_CONTENTION_LOWEST=0 leaves out the players' rounds with the probes at the lowest CPU priority.
 * SPOOL_BENCH_CONTENTION_VIEWER_ROUNDS=n runs the ten viewers' sequence n times and adds each viewer's median.
 * SPOOL_BENCH_CONTENTION_WARM_SCAN=1 runs each scan once, untimed, in the same server before the timed one, with a
 * 1 GiB article cache: the timed probes find their articles in memory and cost the provider link nothing. An upper
 * bound for a scan that costs the providers nothing (docs/performance.md), not how Spool runs.
 * SPOOL_BENCH_CONTENTION_PROBE_CACHE=0 runs every server with the probe cache off (streaming.probe_cache_size_mb 0,
 * at the import too): a scan of files the cache does not hold (imported before it existed, or pushed out), whose
 * probes fetch from the providers as before it (docs/streaming.md, "The probe cache").
 * SPOOL_CONTENTION_BASELINE=<a checkout of an older commit, with node_modules and its native addons built> runs
 * the player scenarios (in a container too) and the ten viewers on that build too (compiled into
 * <checkout>/.bench-dist).
 * Diagnostics of the ten viewers (docs/performance-history.md, "Why the ten viewers start slower under the scan"):
 * SPOOL_BENCH_CONTENTION_TRACE=<dir> (created if need be) dumps each scenario's ended streams and its players'
 * results: their timelines (header, index, first byte; the FUSE player's every start-up read).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isMounted } from '../appliance/fuse/mount.service.js';
import { buildNzb, type PostedFile } from '../tests/support/inn/poster.js';
import type { StreamsHistoryResponse, StreamsResponse } from '../appliance/streams/streams.wire.js';
import type { ChildServer } from '../tests/support/child-server.js';
import { cleanupOnSignal, tempDirsCleanup } from './lib/cleanup.js';
import { startDelayProxyProcess, type DelayProxyProcess } from './lib/delay-proxy-process.js';
import { benchFixture, type Fixture } from './lib/fixture.js';
import { ffmpegMp4, padMp4, scanLibrary } from './lib/media-fixture.js';
import { lowestPriority, type LowestPriority } from './lib/lowest-priority.js';
import type { PacedPlan, PacedResult } from './lib/paced-player.js';
import { playOverWebdav } from './lib/paced-http-player.js';
import { envNumber, met, MIB, MB, proxyQuickAck, resultTable } from './lib/real-provider.js';
import { bootSpoolWith, buildServer, davUrl, importFixture, importNzb, startMount } from './lib/spool-server.js';

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
  /** A command the server runs under (CONTAINER). */
  wrap?: string[];
}

interface Scan {
  ms: number;
  failed: number;
}

/** Spool in its own pid namespace, as in a container: readers outside it reach the mount as pid 0. */
const CONTAINER = ['unshare', '--pid', '--fork', '--kill-child'];
/** One user agent for every reader of the ten-viewers case (rclone's, as a media server reading through it). */
const ONE_AGENT = 'rclone/v1.68.2';
/** Which parts run (SPOOL_BENCH_CONTENTION_ONLY, a comma list); all by default. */
const PARTS = ['scan', 'container', 'players', 'viewers'] as const;
type Part = (typeof PARTS)[number];
function parts(): Set<Part> {
  const only = process.env.SPOOL_BENCH_CONTENTION_ONLY;
  if (!only) return new Set(PARTS);
  const asked = only.split(',').map((x) => x.trim());
  for (const a of asked) if (!(PARTS as readonly string[]).includes(a)) throw new Error(`unknown part '${a}'`);
  return new Set(asked as Part[]);
}

interface Contention {
  build: string;
  alone: PacedResult;
  scanAlone: Scan;
  withScan: PacedResult;
  scanWithPlayer: Scan;
  traffic: ScanTraffic;
  /** The player with the scan's probes at the lowest CPU priority (bench/lib/lowest-priority.ts). */
  lowest?: { withScan: PacedResult; scan: Scan; traffic: ScanTraffic; load: number };
  /** The 1-minute load average at the end of: the player alone, the scan with the player. */
  load: [number, number];
  /** Ended streams that reached Spool with no pid (the container case), of all. */
  noPid?: [number, number];
}

/** What the scanner lane fetched and what scanners were served, today (GET /api/streams). */
interface ScanTraffic {
  fetched: number;
  served: number;
  /** Every reader's: what the pool fetched for streams (player, read-ahead, scanner lanes), and what was served. */
  fetchedAll: number;
  servedAll: number;
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
  const wanted = parts();
  try {
    const contention: Contention[] = [];
    let setup: Setup | undefined;
    await withLink(f, rate, async (link) => {
      setup = await importAll(f, library, builds[0]![1], dataDir, mnt, link, log);
      for (const [name, main] of wanted.has('scan') ? builds : []) {
        log(`${name}: the player alone, the scan alone, the scan with the player`);
        contention.push(await contentionRounds({ ...setup, main }, name, link, log));
      }
      for (const [build, main] of wanted.has('container') ? builds : []) {
        const name = `${build}, in its own pid namespace (readers reach it as pid 0)`;
        log(`${name}: the player alone, the scan alone, the scan with the player`);
        contention.push(await contentionRounds({ ...setup, main, wrap: CONTAINER }, name, link, log));
      }
    });
    const viewers: Viewers[] = [];
    if (wanted.has('viewers'))
      await withLink(f, VIEWER_LINK_MBS * MB, async (link) => {
        for (const [build, main] of builds) {
          log(
            `${build}: ten viewers over WebDAV at 4 MB/s, one address and agent (${CONNECTIONS} x ${VIEWER_LINK_MBS} MB/s)`,
          );
          for (let round = 1; round <= VIEWER_ROUNDS; round++) {
            if (VIEWER_ROUNDS > 1) log(`  round ${round} of ${VIEWER_ROUNDS}`);
            viewers.push({ ...(await tenViewers({ ...setup!, main }, link, log)), build });
          }
        }
      });
    const ten: TenPlayers[] = [];
    const links = [
      ['a link that carries them all', 4],
      ['a link that cannot', 1.5],
    ] as const;
    for (const [label, mbs] of wanted.has('players') ? links : []) {
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
    return report(rate, contention, ten, viewers);
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

/** SPOOL_BENCH_CONTENTION_WARM_SCAN=1: each scan runs once untimed first (its articles then in memory). */
const WARM_SCAN = process.env.SPOOL_BENCH_CONTENTION_WARM_SCAN === '1';
/** SPOOL_BENCH_CONTENTION_PROBE_CACHE=0: the probe cache off (a scan of files it does not hold). */
const PROBE_CACHE_OFF = process.env.SPOOL_BENCH_CONTENTION_PROBE_CACHE === '0';

function boot(
  s: Pick<Setup, 'f' | 'dataDir' | 'mnt' | 'wrap'>,
  main: string,
  link: DelayProxyProcess,
): Promise<ChildServer> {
  const provider = { host: '127.0.0.1', port: link.port, connections: CONNECTIONS };
  // a scan served from memory needs room for every article it reads beside the players' (WARM_SCAN)
  const streaming = {
    streaming: {
      ...(WARM_SCAN ? { max_cache_size_mb: 1024 } : {}),
      ...(PROBE_CACHE_OFF ? { probe_cache_size_mb: 0 } : {}),
    },
  };
  return bootSpoolWith(s.f, s.dataDir, s.mnt, main, { provider, ...streaming, ...(s.wrap ? { wrap: s.wrap } : {}) });
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
async function withServer<T>(s: Setup, link: DelayProxyProcess, fn: (srv: ChildServer) => Promise<T>): Promise<T> {
  const srv = await boot(s, s.main, link);
  try {
    await startMount(srv);
    return await fn(srv);
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
  const tag = `${s.wrap ? 'container' : 'scan'}${build.startsWith('baseline') ? '-baseline' : ''}`;
  const alone = await withServer(s, link, async (srv) => {
    const played = await pacedPlay(film, plan);
    await traceStreams(srv, `${tag}-player-alone`, [played]);
    return played;
  });
  const aloneLoad = loadavg()[0]!;
  log(`  alone: start ${alone.startMs.toFixed(0)} ms, ${stallText(alone.stalls)}; load ${aloneLoad.toFixed(1)}`);
  log(`    header / index / first byte: ${marksText(alone)} ms`);
  const scanAlone = await withServer(s, link, () => scan(s));
  log(`  scan alone: ${scanAlone.ms.toFixed(0)} ms`);
  const withProbes = (how: ScanHow) =>
    withServer(s, link, async (srv) => {
      if (WARM_SCAN) await scan(s, how); // untimed: the timed scan finds its articles in memory
      const before = await scanTraffic(srv);
      const scanning = scan(s, how);
      await new Promise((r) => setTimeout(r, SCAN_LEAD_MS));
      const [played, scanned] = await Promise.all([pacedPlay(film, plan), scanning]);
      const load = loadavg()[0]!;
      await traceStreams(srv, `${tag}-player-with-scan${how.lowest ? '-lowest' : ''}`, [played]);
      return [played, scanned, await scanTraffic(srv, before), await withoutPid(srv), load] as const;
    });
  const [withScan, scanWithPlayer, traffic, noPid, load] = await withProbes({});
  log(
    `  with the scan: start ${withScan.startMs.toFixed(0)} ms, ${stallText(withScan.stalls)}; load ${load.toFixed(1)}`,
  );
  log(`    header / index / first byte: ${marksText(withScan)} ms`);
  log(`  scan with the player: ${scanWithPlayer.ms.toFixed(0)} ms, ${scanWithPlayer.failed} failed`);
  log(`  scanner lane fetched ${mb(traffic.fetched)}, scanners served ${mb(traffic.served)}`);
  log(`  every stream: fetched ${mb(traffic.fetchedAll)}, served ${mb(traffic.servedAll)}`);
  log(`  streams with no pid: ${noPid[0]} of ${noPid[1]}`);
  const lowest = LOWEST ? await lowestRound(withProbes, log) : undefined;
  return {
    ...{ build, alone, scanAlone, withScan, scanWithPlayer, traffic, lowest },
    load: [aloneLoad, load],
    ...(s.wrap ? { noPid } : {}),
  };
}

async function api<T>(srv: ChildServer, path: string): Promise<T> {
  const res = await fetch(`${srv.baseUrl}${path}`);
  const body = (await res.json()) as { success: boolean; data?: T; error?: { message?: string } };
  if (!body.success) throw new Error(`${path}: ${res.status} ${body.error?.message ?? ''}`);
  return body.data as T;
}

/** Scanner bytes fetched (kept in the data dir across servers: subtract `before`) and served (this process's). */
async function scanTraffic(srv: ChildServer, before?: ScanTraffic): Promise<ScanTraffic> {
  const r = await api<StreamsResponse>(srv, '/api/streams');
  const f = r.fetched_by_class[0]?.bytes;
  const fetched = f?.scanner ?? 0;
  const fetchedAll = f ? f.player + f.read_ahead + f.scanner : 0;
  const served = r.bytes_by_class[0]?.bytes;
  return {
    fetched: fetched - (before?.fetched ?? 0),
    served: served?.scanner ?? 0,
    fetchedAll: fetchedAll - (before?.fetchedAll ?? 0),
    servedAll: served ? served.player + served.scanner : 0,
  };
}

/**
 * SPOOL_BENCH_CONTENTION_TRACE=<dir>: the server's ended streams of a scenario (path, range start, class, bytes
 * served, open and close times) written to <dir>/<name>.json, to see where a start-up's time went.
 */
async function traceStreams(srv: ChildServer, name: string, players?: PacedResult[]): Promise<void> {
  const dir = process.env.SPOOL_BENCH_CONTENTION_TRACE;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  if (players) writeFileSync(path.join(dir, `${name}-players.json`), JSON.stringify(players, null, 1));
  const h = await api<StreamsHistoryResponse>(srv, '/api/streams/history');
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(h.streams, null, 1));
}

/** Ended streams that reached Spool with no pid, and all ended streams (the history keeps 200). */
async function withoutPid(srv: ChildServer): Promise<[number, number]> {
  const h = await api<StreamsHistoryResponse>(srv, '/api/streams/history');
  return [h.streams.filter((x) => x.client.pid === undefined).length, h.streams.length];
}

interface ScanHow {
  /** Over WebDAV with this user agent (through the mount otherwise). */
  webdav?: { srv: ChildServer; userAgent: string };
  /** Every probe reads this local file instead (the control: Spool never sees the probes). */
  local?: string;
  /** The probes at the lowest CPU priority (bench/lib/lowest-priority.ts); equal to everything else's otherwise. */
  lowest?: LowestPriority;
}

/** ffprobe of every library file, SCAN_PARALLEL at a time (`how`): the time it took, and probes that failed. */
async function scan(s: Setup, how: ScanHow = {}): Promise<Scan> {
  const t0 = performance.now();
  const queue = [...s.scan];
  let failed = 0;
  const input = (file: string) => {
    if (how.local) return [how.local];
    return how.webdav ? ['-user_agent', how.webdav.userAgent, davUrl(how.webdav.srv, file)] : [path.join(s.mnt, file)];
  };
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const args = ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', ...input(file)];
      try {
        const [cmd, argv] = how.lowest ? how.lowest.wrap('ffprobe', args) : ['ffprobe', args];
        const { stdout } = await run(cmd, argv, { timeout: 300_000, maxBuffer: 4 * MIB });
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

/** One scenario of the ten viewers: their results, the scan beside them (if any), and the machine meanwhile. */
interface ViewerRun {
  players: PacedResult[];
  scan?: Scan;
  traffic: ScanTraffic;
  /** Spool's CPU seconds in the scenario, and the 1-minute load average at its end. */
  cpu: number;
  load: number;
}

/** The scans the ten viewers play beside (each in a fresh server), in the order they run. */
const VIEWER_MODES = ['scan', 'scan-lowest', 'control', 'control-lowest'] as const;
type ViewerMode = (typeof VIEWER_MODES)[number];
const VIEWER_MODE_LABEL: Record<ViewerMode, string> = {
  scan: 'under the scan, probes at equal CPU priority',
  'scan-lowest': 'under the scan, probes at the lowest CPU priority',
  control: 'control: the same probes of a local file (Spool never sees them), equal priority',
  'control-lowest': 'control: the same probes of a local file, at the lowest CPU priority',
};

interface Viewers {
  build?: string;
  /** Alone before the scans (after a warm-up pass) and after them: a player's reference is the mean of its two. */
  alone: ViewerRun;
  aloneAfter: ViewerRun;
  modes: Partial<Record<ViewerMode, ViewerRun>>;
  /** How the lowest priority was set (bench/lib/lowest-priority.ts). */
  lowest: string;
}

const VIEWER_RATE = 4 * MB;
/** Per connection: 8 x 10 MB/s carries twice what ten viewers at 4 MB/s want. */
const VIEWER_LINK_MBS = 10;

/**
 * Ten viewers over WebDAV from one address and user agent: alone, then beside each scan of VIEWER_MODES: the scan
 * over WebDAV with the same agent, at equal and at the lowest CPU priority, and the control (the same probes of a
 * local file: what the probes' own processes cost the viewers on this machine), at both priorities too.
 */
async function tenViewers(s: Setup, link: DelayProxyProcess, log: (m: string) => void): Promise<Viewers> {
  const tenth = Math.floor(s.f.file.size / 10);
  const plan = (i: number): PacedPlan => ({
    size: s.f.file.size,
    header: 256 * 1024,
    index: MIB,
    from: i * tenth + MIB,
    rate: VIEWER_RATE,
    startBytes: 4 * MB,
    playBytes: envNumber('SPOOL_BENCH_CONTENTION_VIEWER_MB', 36) * MIB,
    maxBuffer: 16 * MIB,
    rebuffer: 4 * MB,
  });
  const ten = (srv: ChildServer) =>
    Promise.all(Array.from({ length: 10 }, (_, i) => playOverWebdav(davUrl(srv, s.player), ONE_AGENT, plan(i))));
  const lowest = lowestPriority(`spool-bench-probes-${process.pid}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'spool-bench-contention-local-'));
  const local = path.join(dir, 'local.mp4');
  try {
    writeFileSync(local, padMp4(ffmpegMp4(20), 16 * MIB));
    // INN's page cache: the first pass over the viewers' articles reads the spool from disk, later ones do not
    logViewerRun(log, 'warm-up (not used)', await viewerRun(s, link, 'viewers-warm-up', ten));
    const before = await viewerRun(s, link, 'viewers-alone', ten);
    logViewerRun(log, 'alone', before);
    const modes: Viewers['modes'] = {};
    for (const mode of VIEWER_MODES) {
      const how = (srv: ChildServer): ScanHow => ({
        ...(mode.startsWith('scan') ? { webdav: { srv, userAgent: ONE_AGENT } } : { local }),
        ...(mode.endsWith('lowest') ? { lowest } : {}),
      });
      modes[mode] = await viewerRun(s, link, `viewers-${mode}`, ten, how);
      logViewerRun(log, VIEWER_MODE_LABEL[mode], modes[mode]);
    }
    const aloneAfter = await viewerRun(s, link, 'viewers-alone-after', ten);
    logViewerRun(log, 'alone again, after the scans', aloneAfter);
    const v = { alone: before, aloneAfter, modes, lowest: lowest.label };
    for (const mode of VIEWER_MODES) log(`  ${mode}: worst ${worstRatio(modes[mode]!, v).toFixed(2)}x its start alone`);
    return v;
  } finally {
    lowest.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ten viewers on a fresh server, beside the scan `how` gives (alone without one), the scan SCAN_LEAD_MS ahead. */
async function viewerRun(
  s: Setup,
  link: DelayProxyProcess,
  name: string,
  ten: (srv: ChildServer) => Promise<PacedResult[]>,
  how?: (srv: ChildServer) => ScanHow,
): Promise<ViewerRun> {
  return withServer(s, link, async (srv) => {
    const before = await scanTraffic(srv);
    const cpu = srv.cpuSeconds();
    if (WARM_SCAN && how) await scan(s, how(srv)); // untimed: the timed scan finds its articles in memory
    const scanning = how ? scan(s, how(srv)) : undefined;
    if (scanning) await new Promise((r) => setTimeout(r, SCAN_LEAD_MS));
    const [players, scanned] = await Promise.all([ten(srv), scanning]);
    const used = srv.cpuSeconds() - cpu;
    await traceStreams(srv, name, players);
    const traffic = await scanTraffic(srv, before);
    return { players, ...(scanned ? { scan: scanned } : {}), traffic, cpu: used, load: loadavg()[0]! };
  });
}

function logViewerRun(log: (m: string) => void, label: string, r: ViewerRun): void {
  log(`  ${label}: start ${r.players.map((p) => sec(p.startMs)).join(', ')}`);
  log(`    header / index / first byte: ${r.players.map(marksText).join('; ')}`);
  log(
    `    stalls ${r.players.map((p) => p.stalls.length).join(',')}; Spool ${r.cpu.toFixed(1)} CPU-s; load ${r.load.toFixed(1)}`,
  );
  if (r.scan) log(`    scan ${sec(r.scan.ms)}, ${r.scan.failed} failed`);
  log(
    `    every stream: fetched ${mb(r.traffic.fetchedAll)}, served ${mb(r.traffic.servedAll)}; scanners served ${mb(r.traffic.served)}`,
  );
}

/** Each player's start alone: the mean of its start before the scans and after them. */
const aloneStart = (v: Pick<Viewers, 'alone' | 'aloneAfter'>, i: number) =>
  (v.alone.players[i]!.startMs + v.aloneAfter.players[i]!.startMs) / 2;
const worstRatio = (r: ViewerRun, v: Pick<Viewers, 'alone' | 'aloneAfter'>) =>
  Math.max(...r.players.map((p, i) => p.startMs / aloneStart(v, i)));

/** Compiles an older checkout's server into its own folder (its imports resolve against its node_modules). */
function buildBaseline(root: string): string {
  const out = path.join(root, '.bench-dist');
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
  return path.join(out, 'appliance/main.js');
}

const marksText = (p: PacedResult) =>
  [p.marks?.header, p.marks?.index, p.marks?.firstByte].map((m) => (m === undefined ? '-' : m.toFixed(0))).join('/');
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const stallText = (stalls: number[]) =>
  stalls.length === 0
    ? 'no stall'
    : `${stalls.length} stall(s), ${sec(stalls.reduce((a, b) => a + b, 0))} in all (${stalls.map(sec).join(', ')})`;

const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const started = { at: new Date().toISOString(), load: loadText() };

/** The commit this tree is at, `+changes` when it has uncommitted ones. */
function commit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    return (
      git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain', '--untracked-files=no') ? '+changes' : '')
    );
  } catch {
    return 'unknown';
  }
}

/** SPOOL_BENCH_CONTENTION_LOWEST=0: no player round with the probes at the lowest CPU priority (on a machine so
 * loaded that probes waiting for idle CPU take half an hour). */
const LOWEST = process.env.SPOOL_BENCH_CONTENTION_LOWEST !== '0';

/** The player beside the scan whose probes run at the lowest CPU priority (bench/lib/lowest-priority.ts). */
async function lowestRound(
  withProbes: (how: ScanHow) => Promise<readonly [PacedResult, Scan, ScanTraffic, unknown, number]>,
  log: (m: string) => void,
): Promise<NonNullable<Contention['lowest']>> {
  const priority = lowestPriority(`spool-bench-probes-${process.pid}`);
  const low = await withProbes({ lowest: priority }).finally(() => priority.dispose());
  log(`  probes at the lowest CPU priority: start ${low[0].startMs.toFixed(0)} ms, ${stallText(low[0].stalls)}`);
  log(`    header / index / first byte: ${marksText(low[0])} ms`);
  log(`    scan ${low[1].ms.toFixed(0)} ms, ${low[1].failed} failed; load ${low[4].toFixed(1)}`);
  return { withScan: low[0], scan: low[1], traffic: low[2], load: low[4] };
}

function report(rate: number, rounds: Contention[], ten: TenPlayers[], viewers: Viewers[]): string {
  const rows: Array<[string, string, string]> = [];
  for (const r of rounds) {
    const ratio = r.withScan.startMs / r.alone.startMs;
    const alone = `${sec(r.alone.startMs)}; ${stallText(r.alone.stalls)}; load ${r.load[0].toFixed(1)}`;
    rows.push([`${r.build}: start, player alone`, alone, '']);
    rows.push([
      `${r.build}: start with the scan`,
      `${sec(r.withScan.startMs)} (**${ratio.toFixed(2)}x** alone); load ${r.load[1].toFixed(1)}`,
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
    if (r.lowest) rows.push(lowestRow(r.build, r.lowest, r.alone));
    rows.push([`${r.build}: scanner lane fetched / scanners served`, trafficText(r.traffic), '']);
    if (r.noPid)
      rows.push([`${r.build}: streams that reached Spool with no pid`, `${r.noPid[0]} of ${r.noPid[1]}`, '']);
  }
  for (const v of viewers) rows.push(...viewerRows(v));
  if (VIEWER_ROUNDS > 1)
    for (const build of new Set(viewers.map((v) => v.build)))
      rows.push(...viewerMedianRows(viewers.filter((v) => v.build === build)));
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
    `Run ${started.at} to ${new Date().toISOString()} at commit ${commit()}; load average ${started.load} at the ` +
      `start, ${loadText()} at the end (2 cores shared with whatever else runs: every ratio is against the start ` +
      'alone in this run).',
    '',
    `Link: INN behind the delay proxy, ${RTT_MS} ms round trip, ${(rate / MB).toFixed(1)} MB/s per connection ` +
      `(${VIEWER_LINK_MBS} MB/s for the ten viewers), ` +
      `${CONNECTIONS} connections, plain NNTP; the compiled server, default settings, read through its FUSE mount, ` +
      `a fresh process per scenario. Player: ${PLAYER_MB} MiB, header and index, then 10 MB/s; scan: ` +
      `${SCAN_FILES} MP4s of 16 MiB, ffprobe ${SCAN_PARALLEL} at a time, the player started ${SCAN_LEAD_MS} ms ` +
      'into it. Delivered rate of a ten-player run: bytes read over the time from open to the last byte played.',
    '',
    resultTable(rows),
  ].join('\n');
}

function lowestRow(
  build: string,
  low: NonNullable<Contention['lowest']>,
  alone: PacedResult,
): [string, string, string] {
  const ratio = low.withScan.startMs / alone.startMs;
  return [
    `${build}: start with the scan, probes at the lowest CPU priority`,
    `${sec(low.withScan.startMs)} (**${ratio.toFixed(2)}x** alone); ${stallText(low.withScan.stalls)}; ` +
      `scan ${sec(low.scan.ms)}, ${low.scan.failed} probes failed; load ${low.load.toFixed(1)}`,
    `<= 1.2x: ${met(ratio <= 1.2)}; none: ${met(low.withScan.stalls.length === 0)}; finishes: ${met(low.scan.failed === 0)}`,
  ];
}

const trafficText = (t: ScanTraffic) => `${mb(t.fetched)} / ${mb(t.served)}`;

/**
 * SPOOL_BENCH_CONTENTION_VIEWER_ROUNDS=n (n > 1): the ten viewers' whole sequence runs n times, and each viewer is
 * judged by its median start beside each scan against the median of its 2n starts alone. One run's ratio moves
 * with the order in which ten simultaneous starts happen to be served: the control (no Spool in the probes' path)
 * gave 1.04-1.37x worst in single runs of the same build (docs/performance.md).
 */
const VIEWER_ROUNDS = Math.max(1, Math.floor(envNumber('SPOOL_BENCH_CONTENTION_VIEWER_ROUNDS', 1)));

const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};

/** Each viewer's median start beside each scan against the median of its starts alone, over the rounds. */
function viewerMedianRows(rounds: Viewers[]): Array<[string, string, string]> {
  const label = `${rounds[0]!.build}: ten viewers, median of ${rounds.length} rounds`;
  const viewers = rounds[0]!.alone.players.map((_, i) => i);
  const alone = viewers.map((i) =>
    median(rounds.flatMap((v) => [v.alone.players[i]!.startMs, v.aloneAfter.players[i]!.startMs])),
  );
  const rows: Array<[string, string, string]> = [[`${label}: start alone`, alone.map(sec).join(', '), '']];
  for (const mode of VIEWER_MODES) {
    if (!rounds.every((v) => v.modes[mode])) continue;
    const starts = viewers.map((i) => median(rounds.map((v) => v.modes[mode]!.players[i]!.startMs)));
    const worst = Math.max(...starts.map((m, i) => m / alone[i]!));
    const stalls = rounds.flatMap((v) => v.modes[mode]!.players.map((p) => p.stalls.length)).reduce((a, b) => a + b, 0);
    const figure = `${starts.map(sec).join(', ')} (worst **${worst.toFixed(2)}x** its median alone); stalls in all rounds ${stalls}`;
    const judged = mode === 'scan-lowest' ? `each <= 1.2x: ${met(worst <= 1.2)}` : '';
    rows.push([`${label}, ${VIEWER_MODE_LABEL[mode]}: start`, figure, judged]);
  }
  return rows;
}

function viewerRows(v: Viewers): Array<[string, string, string]> {
  const label = `${v.build}: ten viewers over WebDAV at 4 MB/s, one address and agent (${CONNECTIONS * VIEWER_LINK_MBS} MB/s)`;
  const starts = (r: ViewerRun) => r.players.map((p) => sec(p.startMs)).join(', ');
  const stalls = (r: ViewerRun) => r.players.map((p) => p.stalls.length);
  const rows: Array<[string, string, string]> = [
    [
      `${label}: start alone, before the scans / after them (a player's start alone: the mean of its two)`,
      `${starts(v.alone)}; load ${v.alone.load.toFixed(1)} / ${starts(v.aloneAfter)}; load ${v.aloneAfter.load.toFixed(1)}; ` +
        `stalls ${[...stalls(v.alone), ...stalls(v.aloneAfter)].reduce((a, b) => a + b, 0)}`,
      '',
    ],
  ];
  for (const mode of VIEWER_MODES) {
    const r = v.modes[mode];
    if (!r) continue;
    const worst = worstRatio(r, v);
    const name = `${label}, ${VIEWER_MODE_LABEL[mode]}`;
    const figure = `${starts(r)} (worst **${worst.toFixed(2)}x** its start alone); load ${r.load.toFixed(1)}`;
    if (mode.startsWith('control')) {
      rows.push([`${name}: start`, `${figure}; stalls ${stalls(r).join(', ')}`, '']);
      continue;
    }
    // The target is judged where the probes' own CPU comes last: what is left is Spool's (docs/performance.md).
    const judged = mode === 'scan-lowest' ? '' : ' (not judged: the probes take the CPU; see the control)';
    rows.push([`${name}: start`, figure, `each <= 1.2x: ${met(worst <= 1.2)}${judged}`]);
    rows.push([`${name}: stalls`, stalls(r).join(', '), `none: ${met(stalls(r).every((n) => n === 0))}`]);
    rows.push([
      `${name}: scan of ${SCAN_FILES} files over WebDAV`,
      `${sec(r.scan!.ms)}; ${r.scan!.failed} probes failed`,
      `finishes: ${met(r.scan!.failed === 0)}`,
    ]);
    rows.push([`${name}: scanner lane fetched / scanners served`, trafficText(r.traffic), '']);
  }
  rows.push([`${label}: the lowest CPU priority`, v.lowest, '']);
  return rows;
}
