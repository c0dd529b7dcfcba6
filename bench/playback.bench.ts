/**
 * Playback start benchmark (issue 15; `npm run bench -- playback`): how long a player waits to start a file it
 * never played, with the server reading from INN over TLS through the emulated link (bench/lib/delay-proxy.ts) at
 * SPOOL_BENCH_PLAYBACK_RTTS (default 0,20,80 ms), 20 connections. A play (bench/lib/player.ts) reads the
 * container header at the start (SPOOL_BENCH_PLAY_HEADER_KIB, default 256), the index at the end
 * (SPOOL_BENCH_PLAY_INDEX_KIB, default 1024) and SPOOL_BENCH_PLAY_MIDDLE_KIB (default 4096) from the middle, one
 * after the other, and the total is the wait.
 *
 * Fixture: SPOOL_BENCH_PLAYBACK_FILES (default 17) files of SPOOL_BENCH_PLAYBACK_MB (default 24) MiB, each its own
 * NZB and job, posted once and reused. For each round trip a fresh server process (so every file is cold in its
 * article cache) plays file 1 once to warm its JIT and connections (not reported), then plays half the others over
 * WebDAV (in-process HTTP client, open-ended ranges, connection dropped once the step has its bytes) and the other
 * half through the FUSE mount (open, pread, close in a child process), one play at a time with the pool idle in
 * between.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isMounted } from '../appliance/fuse/mount.service.js';
import { NntpConnection } from '../appliance/nntp/connection.js';
import type { PostedFile } from '../tests/support/inn/poster.js';
import { ensureInn, type InnServer } from '../tests/support/inn/server.js';
import type { ChildServer } from '../tests/support/child-server.js';
import { cleanupOnSignal, tempDirsCleanup } from './lib/cleanup.js';
import { startDelayProxyProcess } from './lib/delay-proxy-process.js';
import type { Fixture } from './lib/fixture.js';
import { quantile } from './lib/http-client.js';
import { playOverHttp, playPlan, type PlayStep, type PlayTiming } from './lib/player.js';
import { envNumber, met, MIB, ms, resultTable, tlsFront, waitPoolIdle, proxyQuickAck } from './lib/real-provider.js';
import { bootSpoolWith, buildServer, davUrl, importFixture, startMount } from './lib/spool-server.js';
import { film } from '../tests/support/media/film.js';

const run = promisify(execFile);
const CONNECTIONS = 20;

interface Plays {
  rtt: number;
  dav: PlayTiming[];
  fuse: PlayTiming[];
  fuseError?: string;
}

export async function run_(log: (m: string) => void): Promise<string> {
  const rtts = (process.env.SPOOL_BENCH_PLAYBACK_RTTS ?? '0,20,80').split(',').map(Number);
  const kib = (name: string, d: number) => envNumber(name, d) * 1024;
  const sizes = {
    header: kib('SPOOL_BENCH_PLAY_HEADER_KIB', 256),
    index: kib('SPOOL_BENCH_PLAY_INDEX_KIB', 1024),
    middle: kib('SPOOL_BENCH_PLAY_MIDDLE_KIB', 4096),
  };
  const inn = await ensureInn();
  const files = await playbackFixture(inn, log);
  const fixtures: Fixture[] = files.map((file) => ({ inn, file, fixturePath: '' }));
  const front = await tlsFront(fixtures[0]!);
  log('compiling the server (plain node, as in production)');
  const main = buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-playback-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-playback-mnt-'));
  const removeDirs = tempDirsCleanup([mnt, dataDir]);
  const results: Plays[] = [];
  const unmount = () => (isMounted(mnt) ? run('fusermount', ['-uz', mnt]).catch(() => undefined) : Promise.resolve());
  const release = cleanupOnSignal(unmount);
  try {
    const paths: string[] = [];
    for (const rtt of rtts) {
      const link = await startDelayProxyProcess({
        target: { host: front.host, port: front.port },
        rttMs: rtt,
        quickAck: proxyQuickAck(),
      });
      let srv: ChildServer | undefined;
      try {
        const provider = { host: '127.0.0.1', port: link.port, tlsCaFile: front.caFile, connections: CONNECTIONS };
        srv = await bootSpoolWith(fixtures[0]!, dataDir, mnt, main, { provider });
        if (paths.length === 0) {
          log(`importing ${files.length} files (one job each)`);
          for (const f of fixtures) paths.push(await importFixture(srv, f));
          // A fresh process: the import's fetches must not have warmed the cache of the files we play.
          await srv.stop();
          srv = await bootSpoolWith(fixtures[0]!, dataDir, mnt, main, { provider });
        }
        log(`RTT ${rtt} ms: warm-up play, then WebDAV and FUSE plays of files never played by this process`);
        results.push(await playAll(srv, rtt, files, paths, sizes, mnt));
      } finally {
        await srv?.stop();
        await link.stop();
        await unmount();
      }
    }
  } finally {
    await unmount();
    release();
    removeDirs();
  }
  return report(files, sizes, results);
}
export { run_ as run };

async function playAll(
  srv: ChildServer,
  rtt: number,
  files: PostedFile[],
  paths: string[],
  sizes: { header: number; index: number; middle: number },
  mnt: string,
): Promise<Plays> {
  const plan = (i: number) => playPlan(files[i]!.size, sizes);
  await playOverHttp(davUrl(srv, paths[0]!), plan(0)); // JIT and connections, not reported
  const rest = paths.map((_, i) => i).slice(1);
  const half = Math.ceil(rest.length / 2);
  const out: Plays = { rtt, dav: [], fuse: [] };
  for (const i of rest.slice(0, half)) {
    await waitPoolIdle(srv);
    out.dav.push(await playOverHttp(davUrl(srv, paths[i]!), plan(i)));
  }
  try {
    await startMount(srv);
    for (const i of rest.slice(half)) {
      await waitPoolIdle(srv);
      out.fuse.push(await playOverFuse(path.join(mnt, paths[i]!), plan(i)));
    }
  } catch (err) {
    out.fuseError = (err as Error).message; // reported in the table; the WebDAV figures stand
  }
  return out;
}

async function playOverFuse(file: string, plan: PlayStep[]): Promise<PlayTiming> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/fuse-player.ts', file, JSON.stringify(plan)],
    { timeout: 60_000, killSignal: 'SIGKILL' },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as PlayTiming;
}

/** The playback files: posted once to the local INN, their list cached next to its spool. */
async function playbackFixture(inn: InnServer, log: (m: string) => void): Promise<PostedFile[]> {
  const count = envNumber('SPOOL_BENCH_PLAYBACK_FILES', 17);
  const mb = envNumber('SPOOL_BENCH_PLAYBACK_MB', 24);
  if (count < 3) throw new Error('SPOOL_BENCH_PLAYBACK_FILES must be at least 3 (a warm-up, WebDAV and FUSE)');
  const cache = path.join(inn.root, `bench-playback-films-${count}x${mb}mb.json`);
  if (existsSync(cache)) {
    const files = JSON.parse(readFileSync(cache, 'utf8')) as PostedFile[];
    if (await stillThere(inn, files)) return files;
  }
  log(`posting ${count} files of ${mb} MiB to INN (once; cached in ${cache})`);
  const files: PostedFile[] = [];
  for (let i = 0; i < count; i++) {
    files.push(
      await inn.postFile(`spool-playback-${i + 1}-of-${count}.mkv`, film(mb * MIB), {
        articleSize: 768_000,
        connections: 4,
      }),
    );
  }
  writeFileSync(cache, JSON.stringify(files));
  return files;
}

async function stillThere(inn: InnServer, files: PostedFile[]): Promise<boolean> {
  const conn = await NntpConnection.open({ ...inn, tls: false, insecureTls: false });
  try {
    for (const f of [files[0]!, files.at(-1)!]) {
      await conn.stat(`<${f.messageIds[0]}>`);
      await conn.stat(`<${f.messageIds.at(-1)}>`);
    }
    return true;
  } catch {
    return false;
  } finally {
    await conn.quit();
  }
}

function report(
  files: PostedFile[],
  sizes: { header: number; index: number; middle: number },
  results: Plays[],
): string {
  const rows: Array<[string, string, string]> = [];
  const summary = (plays: PlayTiming[]) => {
    const totals = plays.map((p) => p.totalMs);
    const step = (k: number) =>
      ms(
        quantile(
          plays.map((p) => p.steps[k]!),
          0.5,
        ),
      );
    return {
      p50: quantile(totals, 0.5),
      text: `p50 **${ms(quantile(totals, 0.5))}**, max ${ms(Math.max(...totals))} (${plays.length} files; step p50s: header ${step(0)}, index ${step(1)}, middle ${step(2)})`,
    };
  };
  for (const r of results) {
    const dav = summary(r.dav);
    rows.push([
      `${r.rtt} ms: playback start over WebDAV (header, index, middle)`,
      dav.text,
      r.rtt === 20 ? `<= 150 ms: ${met(dav.p50 <= 150)}` : '',
    ]);
    rows.push([
      `${r.rtt} ms: playback start through the FUSE mount`,
      r.fuse.length ? summary(r.fuse).text : `not measured: ${r.fuseError ?? 'no plays'}`,
      '',
    ]);
  }
  return [
    `Files: ${files.length} of ${(files[0]!.size / MIB).toFixed(0)} MiB (${files[0]!.segments.length} articles of 768,000 bytes each) on the local INN 2.7 through its TLS front, behind the delay proxy; server: the compiled main.js, default streaming settings, ${CONNECTIONS} connections over TLS; a play reads ${sizes.header / 1024} KiB at the start, the last ${sizes.index / 1024} KiB, then ${sizes.middle / 1024} KiB from the middle, each file once (cold).`,
    '',
    resultTable(rows),
  ].join('\n');
}
