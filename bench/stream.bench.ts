/**
 * Streaming benchmark (issue 5): the real server in this process over the local INN fixture (bench/lib/fixture).
 * Sequential WebDAV GET, cold first byte at random offsets, 1 MB random range latency, 4 concurrent streams,
 * peak RSS, and a sequential read through the FUSE mount (by `dd` in a child process: the mount is served by this
 * process, so reading it synchronously from here would deadlock).
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchFixture } from './lib/fixture.js';
import { startServer } from '../tests/support/server.js';

const run = promisify(execFile);
const AUTH = 'Basic ' + Buffer.from('bench:bench').toString('base64');

export async function run_(log: (m: string) => void): Promise<string> {
  const f = await benchFixture(log);
  const mnt = mkdtempSync(path.join(tmpdir(), 'spool-bench-mnt-'));
  const srv = await startServer({
    config: {
      auth: { login_required: true },
      webdav: { user: 'bench', password: 'bench' },
      mount_path: mnt,
      providers: [{ id: 'inn', host: f.inn.host, port: f.inn.port, username: f.inn.username, password: f.inn.password, max_connections: 8, tls: false, insecure_tls: false, enabled: true, is_backup_provider: false }],
    },
  });
  let peakRss = 0;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  try {
    const size = f.file.size;
    const segments = f.file.segments.map((s) => ({ messageId: s.messageId, start: s.offset, end: s.offset + s.size }));
    const { files } = await srv.app().streaming.vfs.addJob({ category: 'bench', jobName: `Bench-${Date.now()}`, files: [{ name: 'bench.bin', size, layout: { segments } }] });
    const url = `${srv.baseUrl}/webdav${files[0]}`;
    const get = async (range?: string) => {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { Authorization: AUTH, ...(range ? { Range: range } : {}) } });
      const reader = res.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - t0;
        bytes += value.byteLength;
      }
      return { ms: performance.now() - t0, first, bytes };
    };
    const cpu0 = process.cpuUsage();
    const seq = await get();
    const cpu = process.cpuUsage(cpu0);
    const seqMBs = seq.bytes / (seq.ms / 1000) / 1e6;
    const cpuPerGib = (cpu.user + cpu.system) / 1e6 / (seq.bytes / 2 ** 30);
    log(`sequential GET ${seqMBs.toFixed(0)} MB/s`);
    const firsts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const off = randomInt(0, size - 1);
      firsts.push((await get(`bytes=${off}-`.concat(String(Math.min(size - 1, off + 65_535))))).first);
    }
    const lat: number[] = [];
    for (let i = 0; i < 100; i++) {
      const off = randomInt(0, size - 1_000_000);
      lat.push((await get(`bytes=${off}-${off + 999_999}`)).ms);
    }
    lat.sort((a, b) => a - b);
    firsts.sort((a, b) => a - b);
    const t4 = performance.now();
    const four = await Promise.all([0, 1, 2, 3].map((i) => get(`bytes=${Math.floor((i * size) / 4)}-${Math.floor(((i + 1) * size) / 4) - 1}`)));
    const fourMBs = four.reduce((n, r) => n + r.bytes, 0) / ((performance.now() - t4) / 1000) / 1e6;
    await srv.app().streaming.mount.start();
    const tf = performance.now();
    await run('dd', [`if=${path.join(mnt, files[0] as string)}`, 'of=/dev/null', 'bs=1M'], { timeout: 600_000 });
    const fuseMBs = size / ((performance.now() - tf) / 1000) / 1e6;
    await srv.app().streaming.mount.stop();
    const pct = (a: number[], p: number) => a[Math.min(a.length - 1, Math.floor(a.length * p))]!.toFixed(1);
    return [
      `File: ${(size / 2 ** 20).toFixed(0)} MiB in ${segments.length} articles on the local INN; server in-process, defaults (cache ${srv.app().config.get().streaming.max_cache_size_mb} MB, ${srv.app().config.get().streaming.max_download_workers} workers/stream).`,
      '',
      '| measure | value |',
      '|---|---|',
      `| sequential WebDAV GET | ${seqMBs.toFixed(0)} MB/s, ${cpuPerGib.toFixed(2)} CPU-s/GiB (server + client) |`,
      `| cold first byte at a random offset (p50 / max of 10) | ${pct(firsts, 0.5)} ms / ${firsts.at(-1)!.toFixed(1)} ms |`,
      `| 1 MB random range read p50 / p99 (100) | ${pct(lat, 0.5)} ms / ${pct(lat, 0.99)} ms |`,
      `| 4 concurrent streams (quarters of the file) | ${fourMBs.toFixed(0)} MB/s total |`,
      `| FUSE sequential read (dd bs=1M) | ${fuseMBs.toFixed(0)} MB/s (${((fuseMBs / seqMBs) * 100).toFixed(0)}% of WebDAV) |`,
      `| peak RSS (server + bench client) | ${(peakRss / 2 ** 20).toFixed(0)} MiB |`,
    ].join('\n');
  } finally {
    clearInterval(rssTimer);
    await srv.stop();
    rmSync(mnt, { recursive: true, force: true });
  }
}
export { run_ as run };
