/**
 * The scale bench's measurements from outside the server (bench/scale.bench.ts): WebDAV PROPFIND, a read through
 * the pool, `ls -l` and `find` on the FUSE mount, imports through the queue API.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ChildServer } from '../../tests/support/child-server.js';
import { median } from './scale-figures.js';
import { patternNzb, type NzbFileSpec } from './scale-nzb.js';

function davHref(srv: ChildServer, path: string): string {
  return `${srv.baseUrl}/webdav${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** PROPFIND Depth 1 (allprop) of `dir` `runs` times: the median milliseconds and the entries of the last answer. */
export async function propfindP50(
  srv: ChildServer,
  dir: string,
  runs: number,
): Promise<{ p50: number; first: number; entries: number }> {
  const times: number[] = [];
  let entries = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(davHref(srv, dir), { method: 'PROPFIND', headers: { Depth: '1' } });
    const body = await res.text();
    times.push(performance.now() - t);
    if (res.status !== 207) throw new Error(`PROPFIND ${dir}: ${res.status}`);
    entries = body.split('<D:response>').length - 2; // less the folder itself
  }
  return { p50: median(times), first: times[0]!, entries };
}

/** Reads the first `bytes` of a file over WebDAV (through the pool); checks the pattern's first article header. */
export async function readThroughPool(
  srv: ChildServer,
  file: string,
  bytes: number,
): Promise<{ ms: number; mbps: number }> {
  const t = performance.now();
  const res = await fetch(davHref(srv, file), { headers: { Range: `bytes=0-${bytes - 1}` } });
  const buf = Buffer.from(await res.arrayBuffer());
  const took = performance.now() - t;
  if (res.status !== 206 || buf.length !== bytes || buf.readUInt32BE(4) !== 1)
    throw new Error(`read of ${file}: ${res.status}, ${buf.length} bytes, part ${buf.readUInt32BE(4)}`);
  return { ms: took, mbps: bytes / 1e6 / (took / 1000) };
}

/** Wall milliseconds of a command (its output discarded but counted in lines). */
export function timed(cmd: string, args: string[]): { ms: number; lines: number } {
  const t = performance.now();
  const out = execFileSync(cmd, args, { maxBuffer: 1 << 30 });
  return { ms: performance.now() - t, lines: out.toString('utf8').split('\n').length - 1 };
}

/** `ls -l` of a folder `runs` times, 1.5 s apart (the kernel's 1 s entry and attribute cache has expired each time). */
export async function lsP50(dir: string, runs: number): Promise<{ p50: number; first: number; lines: number }> {
  const times: number[] = [];
  let lines = 0;
  for (let i = 0; i < runs; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1500));
    const r = timed('ls', ['-l', dir]);
    times.push(r.ms);
    lines = r.lines;
  }
  return { p50: median(times), first: times[0]!, lines };
}

async function api<T>(srv: ChildServer, path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${srv.baseUrl}${path}`, init);
  const body = (await res.json()) as { success: boolean; data?: T; error?: { message: string } };
  if (!body.success) throw new Error(`${path}: ${res.status} ${body.error?.message ?? ''}`);
  return body.data as T;
}

interface Stats {
  total_completed: number;
  total_failed: number;
}

/**
 * Queues `nzbs` at once (uploads, one after another) and waits (bounded) until every one has completed or failed.
 * Seconds from the first upload to the last import, and how many failed.
 */
export async function importAll(
  srv: ChildServer,
  category: string,
  nzbs: readonly NzbFileSpec[][],
  timeoutMs: number,
): Promise<{ seconds: number; failed: number; uploadSeconds: number; why: string }> {
  const before = await api<Stats>(srv, '/api/queue/stats');
  const t = performance.now();
  for (const [i, files] of nzbs.entries()) {
    const form = new FormData();
    form.append('category', category);
    form.append('file', new Blob([patternNzb(files)]), `${files[0]!.name.replace(/\.\w+$/, '')}.${i}.nzb`);
    await api(srv, '/api/queue/upload', { method: 'POST', body: form });
  }
  const uploadSeconds = (performance.now() - t) / 1000;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await api<Stats>(srv, '/api/queue/stats');
    const done = s.total_completed - before.total_completed + s.total_failed - before.total_failed;
    if (done >= nzbs.length) {
      const seconds = (performance.now() - t) / 1000;
      const failed = s.total_failed - before.total_failed;
      return { seconds, failed, uploadSeconds, why: failed > 0 ? await lastFailure(srv) : '' };
    }
    if (Date.now() > until) throw new Error(`imports: ${done} of ${nzbs.length} done after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The error message of the most recent failed import. */
async function lastFailure(srv: ChildServer): Promise<string> {
  const page = await fetch(`${srv.baseUrl}/api/queue?status=failed&limit=1`);
  const body = (await page.json()) as { data?: { error_message?: string | null }[] };
  return body.data?.[0]?.error_message ?? '(no message)';
}

/**
 * Resident memory of a process now, in MiB: all of it (VmRSS), and its parts: anonymous (heap, buffers) and file
 * pages mapped (mostly the LMDB file: page cache the kernel can take back).
 */
export function rssMb(pid: number): { total: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}
