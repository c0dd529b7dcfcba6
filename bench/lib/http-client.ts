/**
 * The benchmark's HTTP client: curl in its own process, so the client's CPU never counts against the server and a
 * JS client cannot be the bottleneck. curl reports time to first byte and total time itself.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface GetTiming {
  status: number;
  /** From sending the request to the first body byte. */
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

/** GET `url` (optionally `Range: bytes=<range>`), body discarded. Throws on a status other than 200/206. */
export async function timedGet(url: string, range?: string, timeoutMs = 600_000): Promise<GetTiming> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_starttransfer} %{time_total} %{size_download}'];
  if (range) args.push('-r', range);
  const { stdout } = await run('curl', [...args, url], { timeout: timeoutMs });
  const [status, ttfb, total, bytes] = stdout.trim().split(' ').map(Number) as [number, number, number, number];
  if (status !== 200 && status !== 206) throw new Error(`GET ${url} ${range ?? ''} answered ${status}`);
  return { status, ttfbMs: ttfb * 1000, totalMs: total * 1000, bytes };
}

/** The p-th quantile (0..1) of a list of numbers, nearest rank. */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] as number;
}
