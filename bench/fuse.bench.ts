/**
 * FUSE vs WebDAV sequential read, A/B-friendly (issue 5: FUSE >= 80% of WebDAV). Same fixture and server as the
 * stream bench (bench/lib), but only the two sequential reads, alternated in fresh server processes
 * (SPOOL_FUSE_ROUNDS rounds, default 3) so both see the same moment of a shared, noisy host and a cold article
 * cache. The FUSE client is `dd bs=1M` in a child process; the WebDAV client is curl.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchFixture, BENCH_MB } from './lib/fixture.js';
import { timedGet } from './lib/http-client.js';
import { bootSpool, buildServer, davUrl, importFixture, startMount } from './lib/spool-server.js';
import { isMounted } from '../appliance/fuse/mount.service.js';

const run = promisify(execFile);
const MB = 1_000_000;
const ROUNDS = Number(process.env.SPOOL_FUSE_ROUNDS ?? 3);

export async function run_(log: (m: string) => void): Promise<string> {
  const f = await benchFixture(log);
  const size = f.file.size;
  log('compiling the server (plain node, as in production)');
  const main = buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-bench-data-'));
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-mnt-'));
  const rows: string[] = [];
  try {
    let srv = await bootSpool(f, dataDir, mnt, main);
    const file = await importFixture(srv, f).finally(() => srv.stop());
    for (let i = 1; i <= ROUNDS; i++) {
      srv = await bootSpool(f, dataDir, mnt, main);
      const dav = await timedGet(davUrl(srv, file)).finally(() => srv.stop());
      if (dav.bytes !== size) throw new Error(`WebDAV returned ${dav.bytes} of ${size} bytes`);
      srv = await bootSpool(f, dataDir, mnt, main);
      let fuseMs: number;
      let fuseCpu: number;
      try {
        await startMount(srv);
        const cpu0 = srv.cpuSeconds();
        const t0 = performance.now();
        await run('dd', [`if=${path.join(mnt, file)}`, 'of=/dev/null', 'bs=1M'], { timeout: 900_000 });
        fuseMs = performance.now() - t0;
        fuseCpu = srv.cpuSeconds() - cpu0;
      } finally {
        await srv.stop();
      }
      const davMBs = size / (dav.totalMs / 1000) / MB;
      const fuseMBs = size / (fuseMs / 1000) / MB;
      const row = `| ${i} | ${davMBs.toFixed(0)} MB/s | ${fuseMBs.toFixed(0)} MB/s, server ${(fuseCpu / (size / 2 ** 30)).toFixed(2)} CPU-s/GiB | ${((fuseMBs / davMBs) * 100).toFixed(0)}% |`;
      log(row);
      rows.push(row);
    }
    return [
      `File: ${BENCH_MB} MiB on the local INN, fresh server process per read (cold article cache), default settings.`,
      '',
      '| round | WebDAV GET (curl) | FUSE dd bs=1M | FUSE / WebDAV |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    if (isMounted(mnt)) await run('fusermount3', ['-uz', mnt]).catch(() => undefined);
    rmSync(mnt, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
export { run_ as run };
