/**
 * SABnzbd API under the arrs' polling: 10,000 finished jobs in the history (two categories, every job folder on
 * disk with a file, like the symlink strategy leaves them), then the polls Radarr/Sonarr make every minute,
 * timed by curl in its own process (so the client's CPU is not the server's). Reports p50/p99 per call.
 *
 *   npm run bench -- sabnzbd
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, startServer } from '../tests/support/server.js';
import { QueueTables } from '../appliance/importer/queue.store.js';
import { quantile, timedGet } from './lib/http-client.js';

const JOBS = 10_000;
const ROUNDS = Number(process.env.SAB_BENCH_ROUNDS ?? 200);

export async function run(log: (m: string) => void): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'spool-sab-bench-'));
  const downloads = join(root, 'downloads');
  const srv = await startServer({
    config: {
      mount_path: join(root, 'mnt'),
      import: { import_strategy: 'symlink', import_dir: downloads },
      sabnzbd: { enabled: true },
    },
  });
  try {
    const reg = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { username: 'bench', password: 'correct horse' },
    });
    const key = reg.body.data!.user.api_key;
    const app = srv.app();
    app.importer.runner.pause();
    log(`seeding ${JOBS} finished jobs`);
    const t0 = Date.now();
    // Seeded straight into the LMDB tables, a thousand items per transaction.
    const repo = new QueueTables(app.store);
    for (let i = 0; i < JOBS; i += 1000) {
      app.store.transaction(() => {
        for (let j = i; j < Math.min(JOBS, i + 1000); j++) {
          const category = j % 2 === 0 ? 'tv' : 'movies';
          const name = `Job.${j}.1080p`;
          const storage = join(downloads, category, name);
          mkdirSync(storage, { recursive: true });
          writeFileSync(join(storage, `${name}.mkv`), 'x');
          const at = 1_700_000_000_000 + j * 1000;
          const failed = j % 50 === 0;
          repo.insert({
            nzbPath: `${name}.nzb`,
            name,
            category,
            priority: 0,
            status: failed ? 'failed' : 'completed',
            targetPath: `/complete/${category}/${name}`,
            storagePath: failed ? null : storage,
            fileSize: 4_000_000_000 + j,
            retryCount: 0,
            maxRetries: 3,
            errorMessage: failed ? 'Missing articles on every provider in 1 file(s)' : null,
            nextAttemptAt: null,
            contentHash: String(j),
            createdAt: at - 60_000,
            updatedAt: at,
            startedAt: at - 30_000,
            completedAt: failed ? null : at,
          });
        }
      });
    }
    log(`seeded in ${Date.now() - t0} ms`);
    const base = `${srv.baseUrl}/sabnzbd/api`;
    const calls: [string, string][] = [
      ['history limit=60 category=tv', `mode=history&start=0&limit=60&category=tv&apikey=${key}&output=json`],
      ['history limit=60 (all)', `mode=history&start=0&limit=60&apikey=${key}&output=json`],
      ['queue limit=0 category=tv', `mode=queue&start=0&limit=0&category=tv&apikey=${key}&output=json`],
      ['history start=9000 limit=60', `mode=history&start=9000&limit=60&apikey=${key}&output=json`],
    ];
    const rows: string[] = [];
    // The floor on this machine: the same HTTP round trip to /ping (no work). On a loaded host it dominates.
    const floor: number[] = [];
    for (let i = 0; i < ROUNDS; i++) floor.push((await timedGet(`${srv.baseUrl}/ping`)).totalMs);
    rows.push(
      `| GET /ping (HTTP floor) | ${quantile(floor, 0.5).toFixed(2)} ms | ${quantile(floor, 0.99).toFixed(2)} ms |`,
    );
    for (const [label, query] of calls) {
      for (let i = 0; i < 20; i++) await timedGet(`${base}?${query}`); // warm: first polls stat new job folders
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push((await timedGet(`${base}?${query}`)).totalMs);
      const p50 = quantile(times, 0.5);
      const p99 = quantile(times, 0.99);
      log(`${label}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
      rows.push(`| ${label} | ${p50.toFixed(2)} ms | ${p99.toFixed(2)} ms |`);
    }
    // The mode's own work, without HTTP: the service call the route makes, timed in process.
    const sab = app.sabnzbd.service;
    for (const [label, query] of calls.slice(0, 2)) {
      const params = new URLSearchParams(query);
      const p = { get: (k: string) => params.get(k) ?? undefined };
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const t = process.hrtime.bigint();
        JSON.stringify(await sab.history(p));
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      rows.push(
        `| ${label}, service + JSON only | ${quantile(times, 0.5).toFixed(2)} ms | ${quantile(times, 0.99).toFixed(2)} ms |`,
      );
    }
    return [
      `${JOBS} finished jobs in the history (2 categories), ${ROUNDS} sequential calls each, curl-timed, API key auth.`,
      '',
      '| call | p50 | p99 |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n');
  } finally {
    await srv.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
