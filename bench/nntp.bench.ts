/**
 * NNTP benchmark (npm run bench; SPOOL_BENCH_MB=64 for a smoke run): a file posted to the local INN, fetched
 * (a) raw with pipelined BODY and no decoding, (b) through Spool's pool with yEnc decoding, (c) by Debian nzbget;
 * then 4 readers sharing 8 connections for acquire_wait_time_ms. Prints a markdown table for docs/performance.md.
 */
import { benchFixture, BENCH_MB } from './lib/fixture.js';
import { cpuPerGib, mbps, row, runWorker, type Measurement } from './lib/measure.js';
import { runNzbget } from './lib/nzbget.js';

export async function run(log: (m: string) => void = console.error): Promise<string> {
  const f = await benchFixture(log);
  const results: Measurement[] = [];
  log('(a) raw pipelined BODY fetch');
  results.push({ ...runWorker('raw', f), name: 'raw BODY, no decode' });
  log('(b) Spool pool fetch + decode');
  const pool = { ...runWorker('pool', f), name: 'Spool pool + yEnc decode' };
  results.push(pool);
  log('(c) nzbget');
  const nz = await runNzbget(f);
  results.push({ ...nz, name: 'nzbget 21 (Debian)' });
  log('(d) 4 readers sharing 8 connections');
  const readers = runWorker('readers', f);
  const raw = results[0]!;
  const lines = [
    `NNTP benchmark: ${BENCH_MB} MiB in ${f.file.segments.length} articles of 768,000 bytes, INN 2.7 on loopback, plain TCP, 8 connections.`,
    '',
    '| run | throughput | CPU | peak RSS |',
    '|---|---|---|---|',
    ...results.map(row),
    '',
    `- Spool decoded vs nzbget: ${(mbps(pool) / mbps(nz)).toFixed(2)}x (target >= 1.2x)`,
    `- Spool decoded vs raw: ${((mbps(pool) / mbps(raw)) * 100).toFixed(0)}% (target >= 60%)`,
    `- Spool CPU: ${cpuPerGib(pool).toFixed(2)} s/GiB (target <= 1.0)`,
    `- 4 readers x 2 read-ahead on 8 connections: ${mbps(readers).toFixed(0)} MB/s, acquire_wait_time_ms ${readers.acquireWaitMs} (target < 5 ms)`,
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
