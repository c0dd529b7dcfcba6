/**
 * FUSE vs WebDAV sequential read, A/B-friendly (issue 5: FUSE >= 80% of WebDAV). Same fixture and server as the
 * stream bench (bench/lib), but only the sequential reads, each in a fresh server process (cold article cache),
 * SPOOL_FUSE_ROUNDS rounds (default 3), so all see the same moment of a shared, noisy host. The FUSE client is
 * `dd bs=1M` in a child process; the WebDAV client is curl.
 *
 * Each round also reads through a page-cache mount (`mount_options: { direct_io: false }`, the mode before
 * session 3), order alternating with the default direct-I/O mount, so the report shows what direct I/O buys.
 *
 * SPOOL_FUSE_BASELINE=<checkout of an older commit, with its node_modules> adds that build's FUSE read to every
 * round (order alternating), e.g. the @cocalc/fuse-native (FUSE 2) mount before our own FUSE 3 addon.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchFixture, BENCH_MB, type Fixture } from './lib/fixture.js';
import { timedGet } from './lib/http-client.js';
import { bootSpool, buildServer, davUrl, importFixture, startMount } from './lib/spool-server.js';
import { isMounted } from '../appliance/fuse/mount.service.js';

const run = promisify(execFile);
const MB = 1_000_000;
const ROUNDS = Number(process.env.SPOOL_FUSE_ROUNDS ?? 3);
const BASELINE = process.env.SPOOL_FUSE_BASELINE;

interface FuseRead {
  mbs: number;
  cpuPerGiB: number;
  /** Share of kernel reads the native window answered, and the mean read size (ours only: from the unmount log). */
  nativeShare?: number;
  meanReadKiB?: number;
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

const PAGE_CACHE = { mount_options: { direct_io: false } };

async function fuseRead(
  f: Fixture,
  dataDir: string,
  mnt: string,
  main: string,
  file: string,
  rclone?: Record<string, unknown>,
): Promise<FuseRead> {
  const srv = await bootSpool(f, dataDir, mnt, main, rclone);
  try {
    await startMount(srv);
    const cpu0 = srv.cpuSeconds();
    const t0 = performance.now();
    await run('dd', [`if=${path.join(mnt, file)}`, 'of=/dev/null', 'bs=1M'], { timeout: 900_000 });
    const ms = performance.now() - t0;
    const cpu = srv.cpuSeconds() - cpu0;
    await fetch(`${srv.baseUrl}/api/rclone/mount/stop`, { method: 'POST' });
    const size = f.file.size;
    const read: FuseRead = { mbs: size / (ms / 1000) / MB, cpuPerGiB: cpu / (size / 2 ** 30) };
    const m = /"msg":"unmounted".*?"native_reads":(\d+),"native_bytes":(\d+),"js_reads":(\d+)/.exec(srv.output());
    if (m) {
      const [nat, bytes, js] = [Number(m[1]), Number(m[2]), Number(m[3])];
      read.nativeShare = nat / Math.max(1, nat + js);
      read.meanReadKiB = bytes / Math.max(1, nat) / 1024;
    }
    return read;
  } finally {
    await srv.stop();
  }
}

const fmt = (r: FuseRead, dav: number) =>
  `${r.mbs.toFixed(0)} MB/s (${((r.mbs / dav) * 100).toFixed(0)}%), ${r.cpuPerGiB.toFixed(2)} CPU-s/GiB` +
  (r.nativeShare === undefined
    ? ''
    : `, native ${(r.nativeShare * 100).toFixed(1)}% of reads, ${r.meanReadKiB?.toFixed(0)} KiB/read`);

export async function run_(log: (m: string) => void): Promise<string> {
  const f = await benchFixture(log);
  const size = f.file.size;
  log('compiling the server (plain node, as in production)');
  const main = buildServer();
  const baseline = BASELINE ? buildBaseline(BASELINE) : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-data-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-mnt-'));
  const rows: string[] = [];
  try {
    let srv = await bootSpool(f, dataDir, mnt, main);
    const file = await importFixture(srv, f).finally(() => srv.stop());
    // One untimed read first, so INN's spool is in the page cache for every timed read (round 1 read it cold).
    srv = await bootSpool(f, dataDir, mnt, main);
    await timedGet(davUrl(srv, file)).finally(() => srv.stop());
    for (let i = 1; i <= ROUNDS; i++) {
      srv = await bootSpool(f, dataDir, mnt, main);
      const dav = await timedGet(davUrl(srv, file)).finally(() => srv.stop());
      if (dav.bytes !== size) throw new Error(`WebDAV returned ${dav.bytes} of ${size} bytes`);
      const davMBs = size / (dav.totalMs / 1000) / MB;
      let base: FuseRead | null = null;
      let paged: FuseRead | null = null;
      if (i % 2 === 0) {
        paged = await fuseRead(f, dataDir, mnt, main, file, PAGE_CACHE);
        if (baseline) base = await fuseRead(f, dataDir, mnt, baseline, file);
      }
      const ours = await fuseRead(f, dataDir, mnt, main, file);
      if (i % 2 === 1) {
        paged = await fuseRead(f, dataDir, mnt, main, file, PAGE_CACHE);
        if (baseline) base = await fuseRead(f, dataDir, mnt, baseline, file);
      }
      const row =
        `| ${i} | ${davMBs.toFixed(0)} MB/s | ${fmt(ours, davMBs)} | ${paged ? fmt(paged, davMBs) : ''} |` +
        (base ? ` ${fmt(base, davMBs)} |` : '');
      log(row);
      rows.push(row);
    }
    return [
      `File: ${BENCH_MB} MiB on the local INN, fresh server process per read (cold article cache), default settings.`,
      '',
      `| round | WebDAV GET (curl) | FUSE dd bs=1M (direct I/O, default) | FUSE, page-cache mount |${baseline ? ` baseline FUSE (${BASELINE}) |` : ''}`,
      `|---|---|---|---|${baseline ? '---|' : ''}`,
      ...rows,
    ].join('\n');
  } finally {
    if (isMounted(mnt)) await run('fusermount3', ['-uz', mnt]).catch(() => undefined);
    rmSync(mnt, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
export { run_ as run };
