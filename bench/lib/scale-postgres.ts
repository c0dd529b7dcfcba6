/**
 * The scale bench on PostgreSQL (bench/scale.bench.ts, SCALE_STORES=lmdb,postgres; issue 25): a real PostgreSQL
 * started here (tests/support/postgres/server.ts, stopped by its PID at the end), the same library written through
 * the real app into a fresh database (`metadata.database_url` in the node's config.yaml; the node's tree replica in
 * its own data dir), then the built server started on it (its replica already current) for the listing figures
 * (bench/lib/scale-listing.ts), and a second node on a fresh data dir and the same database: its start to ready
 * rebuilds the replica from the tables.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { stringify } from 'yaml';
import { startChildServer } from '../../tests/support/child-server.js';
import { startPostgres } from '../../tests/support/postgres/server.js';
import { cleanupOnSignal } from './cleanup.js';
import { buildLibrary, openLibraryApp, type LibraryFacts, type LibraryPlan } from './scale-library.js';
import { measureListing, type Listing } from './scale-listing.js';
import { propfindP50 } from './scale-measure.js';
import { mustHoldTheTree } from './store-compare.js';

export interface PostgresScale {
  lib: LibraryFacts;
  listing: Listing;
  /** pg_database_size of the library's database after the build. */
  databaseBytes: number;
  /** A second node on an empty data dir: start to ready, and the replica rebuild its log line reports. */
  freshNode: { readyMs: number; rebuildMs: number | null; nodes: number | null; layouts: number | null };
}

export interface PostgresScaleOptions {
  builtMain: string;
  plan: LibraryPlan;
  /** The node's config.yaml (providers, mount path); `metadata.database_url` is added here. */
  config: (mountPath: string) => Record<string, unknown>;
  log: (m: string) => void;
}

export async function scaleOnPostgres(opts: PostgresScaleOptions): Promise<PostgresScale> {
  const { builtMain, plan, log } = opts;
  const server = await startPostgres();
  const release = cleanupOnSignal(() => server.stop());
  const dirs = ['data', 'mnt', 'fresh-data', 'fresh-mnt'].map((d) =>
    mkdtempSync(path.join(tmpdir(), `spool-scale-pg-${d}-`)),
  );
  const [dataDir, mountPath, freshDir, freshMount] = dirs as [string, string, string, string];
  try {
    const url = await server.createDatabase('spool_scale');
    const node = (dir: string, mnt: string) =>
      writeFileSync(path.join(dir, 'config.yaml'), stringify({ ...opts.config(mnt), metadata: { database_url: url } }));
    node(dataDir, mountPath);
    log(`PostgreSQL (pid ${server.pid}): building ${plan.files} files through the app into a fresh database`);
    const app = await openLibraryApp(dataDir);
    const lib = await buildLibrary(app, plan, log).finally(() => app.stop());
    await mustHoldTheTree(url);
    const databaseBytes = await databaseSize(url);
    log(`PostgreSQL: built ${lib.files} files, ${lib.jobs} jobs in ${lib.buildSeconds} s; the listing figures`);
    const listing = await timedStart(builtMain, dataDir, (srv, startMs) =>
      measureListing(srv, startMs, lib, mountPath),
    );
    log('PostgreSQL: a second node on an empty data dir, the same database (its replica rebuilt at start)');
    node(freshDir, freshMount);
    const freshNode = await timedStart(builtMain, freshDir, async (srv, readyMs) => {
      const big = await propfindP50(srv, lib.bigFolder, 1);
      if (big.entries !== lib.bigFolderEntries)
        throw new Error(`the fresh node lists ${big.entries} of ${lib.bigFolderEntries} entries in ${lib.bigFolder}`);
      return { readyMs, ...rebuildOf(srv.output()) };
    });
    return { lib, listing, databaseBytes, freshNode };
  } finally {
    release();
    await server.stop();
    if (!process.env.SCALE_KEEP) for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** Starts the built server on `dataDir`, runs `work` with its start-to-ready milliseconds, stops it. */
async function timedStart<T>(
  builtMain: string,
  dataDir: string,
  work: (srv: Awaited<ReturnType<typeof startChildServer>>, startMs: number) => Promise<T>,
): Promise<T> {
  const t0 = performance.now();
  const srv = await startChildServer({ builtMain, dataDir, readyTimeoutMs: 600_000 });
  const startMs = performance.now() - t0;
  const release = cleanupOnSignal(() => srv.stop());
  try {
    return await work(srv, startMs);
  } finally {
    release();
    await srv.stop(60_000);
  }
}

/** The replica rebuild's figures from the node's log line (appliance/vfs/tree-replica.store.ts). */
function rebuildOf(output: string): { rebuildMs: number | null; nodes: number | null; layouts: number | null } {
  const line = output.split('\n').find((l) => l.includes('"msg":"tree replica rebuilt from PostgreSQL"'));
  if (!line) return { rebuildMs: null, nodes: null, layouts: null };
  const f = JSON.parse(line) as { ms?: number; nodes?: number; layouts?: number };
  return { rebuildMs: f.ms ?? null, nodes: f.nodes ?? null, layouts: f.layouts ?? null };
}

async function databaseSize(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
}
