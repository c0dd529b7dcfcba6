/**
 * Spool at the size of a real library (npm run bench -- scale; issue 24): SCALE_FILES files (default 100,000) in
 * arr-shaped jobs (bench/lib/scale-library.ts: a category of one folder per movie, season folders of 30 episodes),
 * written through the real app with message ids a pattern server answers (bench/lib/pattern-nntp.ts), then the
 * built server (plain node) started on it with the pattern server as its provider. Every figure is measured from
 * outside the server and printed with its target:
 * start to ready and idle RSS, PROPFIND Depth 1 of the big folder and of a season folder, `ls -l` and `find` through
 * the FUSE mount, store bytes per article (with the NZBs' size), a read through the pool, and the import of a
 * 24-episode season pack and of 1,000 single-file NZBs queued at once, and a health pass measured on a sample of
 * the library through the server (bench/lib/scale-health.ts).
 *
 * SCALE_ARTICLE_FACTOR (default 0.1) scales every file's article count (1 = real posts: ~25 M articles per 10,000
 * files, which costs the store ~2.5 KB... per file to write); the per-article figures do not depend on it.
 * SCALE_FILES=1000000 runs the same at a million files. SCALE_KEEP=1 keeps the data dir.
 *
 * SCALE_STORES (default `lmdb`) picks the stores, e.g. `lmdb,postgres` (issue 25): the same library is built once
 * per store and the listing figures are reported side by side with the PostgreSQL/LMDB ratio
 * (bench/lib/scale-postgres.ts, bench/lib/scale-compare.ts); the other figures are LMDB's.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { startChildServer } from '../tests/support/child-server.js';
import { cleanupOnSignal } from './lib/cleanup.js';
import { startPatternServer } from './lib/pattern-nntp.js';
import { compareTable } from './lib/scale-compare.js';
import { ms, table, type Figure, type FigureHook } from './lib/scale-figures.js';
import { healthPassFigures, SCALE_HEALTH_CONFIG } from './lib/scale-health.js';
import { buildLibrary, openLibraryApp, type LibraryFacts } from './lib/scale-library.js';
import { listingRows, measureListing, type Listing } from './lib/scale-listing.js';
import { importAll, readThroughPool } from './lib/scale-measure.js';
import { scaleOnPostgres } from './lib/scale-postgres.js';
import { buildServer } from './lib/spool-server.js';

/**
 * Figures measured on the same library by other parts of Spool: the health pass (lib/scale-health.ts). Each hook
 * returns its rows; the bench calls them after its own figures, before the server stops.
 */
const figureHooks: FigureHook[] = [healthPassFigures];

const FILES = Number(process.env.SCALE_FILES ?? 100_000);
const FACTOR = Number(process.env.SCALE_ARTICLE_FACTOR ?? 0.1);
const STORES = ['lmdb', 'postgres'] as const;

/** SCALE_STORES: a comma-separated subset of `lmdb,postgres` (default `lmdb`); anything else stops the bench. */
function storesWanted(): Set<(typeof STORES)[number]> {
  const names = (process.env.SCALE_STORES ?? 'lmdb')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = names.filter((n) => !(STORES as readonly string[]).includes(n));
  if (bad.length > 0 || names.length === 0)
    throw new Error(`SCALE_STORES: ${bad.join(', ') || '(empty)'}: use a comma-separated list of lmdb, postgres`);
  return new Set(names as (typeof STORES)[number][]);
}

export async function run(log: (m: string) => void): Promise<string> {
  const stores = storesWanted();
  const builtMain = buildServer();
  const pattern = await startPatternServer();
  const release = cleanupOnSignal(() => pattern.close());
  try {
    const lmdb = stores.has('lmdb') ? await runLmdb(builtMain, pattern, log) : null;
    if (!stores.has('postgres')) return lmdb!.report;
    const pg = await scaleOnPostgres({
      builtMain,
      plan: { files: FILES, articleFactor: FACTOR, seed: 24 },
      config: (mountPath) => config(pattern.port, mountPath),
      log,
    });
    return [lmdb?.report ?? '', '', '### Both stores: the listing figures', '', compareTable(lmdb, pg)].join('\n');
  } finally {
    release();
    await pattern.close();
  }
}

/** The bench on LMDB: every figure, and the listing figures for the comparison. */
async function runLmdb(
  builtMain: string,
  pattern: Awaited<ReturnType<typeof startPatternServer>>,
  log: (m: string) => void,
): Promise<{ report: string; lib: LibraryFacts; listing: Listing }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'spool-scale-'));
  const mountPath = mkdtempSync(path.join(tmpdir(), 'spool-scale-mnt-'));
  let listing: Listing | undefined;
  let lib: LibraryFacts | undefined;
  const rows: Figure[] = [];
  const add = (figure: string, value: string, target: string, pass: boolean | null) =>
    rows.push({ figure, value, target, pass });
  try {
    writeFileSync(path.join(dataDir, 'config.yaml'), stringify(config(pattern.port, mountPath)));
    log(`building ${FILES} files (article factor ${FACTOR}) in ${dataDir}`);
    const app = await openLibraryApp(dataDir);
    lib = await buildLibrary(app, { files: FILES, articleFactor: FACTOR, seed: 24 }, log);
    const layouts = app.store.openDb('vfs-layouts').getStats() as Record<string, number>;
    const storeFile = path.join(app.store.path, 'data.mdb');
    await app.stop();
    const layoutBytes =
      (layouts.treeBranchPageCount! + layouts.treeLeafPageCount! + layouts.overflowPages!) * layouts.pageSize!;
    const storeBytes = statSync(storeFile).size;
    log(`built ${lib.files} files, ${lib.jobs} jobs, ${lib.articles} articles in ${lib.buildSeconds} s`);
    add(
      'library',
      `${lib.files} files, ${lib.jobs} jobs, ${lib.articles} articles`,
      '100,000 files, 10,000+ jobs',
      null,
    );
    add('library build (layouts, nodes, health records)', `${lib.buildSeconds} s`, '', null);
    const perArticle = layoutBytes / lib.articles;
    add('layout store bytes per article', perArticle.toFixed(1), 'under 25', perArticle < 25);
    add('whole store (data.mdb) bytes per article', (storeBytes / lib.articles).toFixed(1), '', null);
    add('raw NZB bytes per article (for comparison)', (lib.nzbBytes / lib.articles).toFixed(1), '', null);
    const t0 = performance.now();
    const srv = await startChildServer({ builtMain, dataDir, readyTimeoutMs: 600_000 });
    const startMs = performance.now() - t0;
    const releaseSrv = cleanupOnSignal(() => srv.stop());
    try {
      listing = await measureListing(srv, startMs, lib, mountPath);
      rows.push(...listingRows(listing));
      const read = await readThroughPool(srv, lib.sampleFile, 16 * 768_000);
      add(
        'read of 12 MB of a file through the pool (WebDAV GET)',
        `${ms(read.ms)} (${read.mbps.toFixed(0)} MB/s)`,
        '',
        null,
      );

      const pack = Array.from({ length: 24 }, (_, e) => ({
        name: `Scale.Pack.S01E${String(e + 1).padStart(2, '0')}.1080p.WEB-DL.mkv`,
        articles: Math.max(1, Math.round(2500 * FACTOR)),
      }));
      const one = await importAll(srv, 'tv', [pack], 600_000);
      add(
        'import of a 24-episode season pack (one NZB)',
        `${one.seconds.toFixed(1)} s (${one.failed} failed${one.why ? `: ${one.why}` : ''})`,
        '',
        one.failed === 0 ? null : false,
      );
      const singles = Array.from({ length: 1000 }, (_, i) => [
        { name: `Single.${i}.2024.1080p.mkv`, articles: Math.max(1, Math.round(3000 * FACTOR)) },
      ]);
      const many = await importAll(srv, 'movies', singles, 1_800_000);
      add(
        '1,000 single-file NZBs queued at once: uploads, then all imported',
        `${many.uploadSeconds.toFixed(1)} s, ${many.seconds.toFixed(1)} s (${(1000 / many.seconds).toFixed(1)}/s, ${many.failed} failed${many.why ? `: ${many.why}` : ''})`,
        '',
        many.failed === 0 ? null : false,
      );
      for (const hook of figureHooks)
        rows.push(...(await hook({ srv, library: lib, provider: pattern.counts, articleFactor: FACTOR, log })));
      add(
        'pattern server: BODY / STAT / HEAD answered',
        `${pattern.counts.body} / ${pattern.counts.stat} / ${pattern.counts.head}`,
        '',
        null,
      );
    } finally {
      releaseSrv();
      await srv.stop(60_000);
    }
  } finally {
    if (!process.env.SCALE_KEEP) rmSync(dataDir, { recursive: true, force: true });
    rmSync(mountPath, { recursive: true, force: true });
  }
  const report = [
    `${FILES} files, article counts x${FACTOR} of real posts; the server is the built one under plain node, its`,
    'provider the pattern server on loopback; every figure measured from outside the server process.',
    '',
    table(rows),
  ].join('\n');
  return { report, lib: lib!, listing: listing! };
}

function config(port: number, mountPath: string): Record<string, unknown> {
  return {
    auth: { login_required: false },
    mount_path: mountPath,
    import: { queue_processing_interval_seconds: 1 },
    health: SCALE_HEALTH_CONFIG,
    providers: [
      {
        id: 'pattern',
        host: '127.0.0.1',
        port,
        username: 'scale',
        password: 'scale',
        max_connections: 8,
        tls: false,
        insecure_tls: false,
        enabled: true,
        is_backup_provider: false,
      },
    ],
  };
}
