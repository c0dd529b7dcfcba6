/**
 * The scale bench's two stores side by side (bench/scale.bench.ts, SCALE_STORES=lmdb,postgres): the listing
 * figures of the same library on LMDB and on PostgreSQL with the PostgreSQL/LMDB ratio, each held to issue 25's
 * "within 2x", then what only a PostgreSQL node has (its database size, a fresh node's replica rebuild).
 */
import type { LibraryFacts } from './scale-library.js';
import type { Listing } from './scale-listing.js';
import { ms } from './scale-figures.js';
import type { PostgresScale } from './scale-postgres.js';

interface Row {
  figure: string;
  pick: (l: Listing) => number;
  show: (x: number) => string;
  /** Context only, not held to "within 2x". */
  context?: boolean;
}

const ROWS: Row[] = [
  {
    figure: 'start to ready on the built library (PostgreSQL: replica already current)',
    pick: (l) => l.startMs,
    show: ms,
  },
  { figure: 'idle RSS 15 s after ready', pick: (l) => l.idle.total, show: (x) => `${x.toFixed(0)} MiB` },
  {
    figure: 'CPU the server used in those 15 s (background work after start)',
    pick: (l) => l.idleCpu,
    show: (x) => `${x.toFixed(2)} s`,
    context: true,
  },
  { figure: 'PROPFIND Depth 1 of the big folder, p50', pick: (l) => l.big.p50, show: ms },
  { figure: 'PROPFIND Depth 1 of a season folder, p50', pick: (l) => l.season.p50, show: ms },
  { figure: 'FUSE ls -l of the big folder, p50', pick: (l) => l.ls.p50, show: ms },
  { figure: 'FUSE find over all files', pick: (l) => l.find.ms, show: ms },
];

/** Markdown: both stores' listing figures and the ratio (or PostgreSQL's alone when LMDB was not run). */
export function compareTable(lmdb: { lib: LibraryFacts; listing: Listing } | null, pg: PostgresScale): string {
  const head = lmdb
    ? ['| figure | LMDB | PostgreSQL | PostgreSQL / LMDB | target | |', '|---|---|---|---|---|---|']
    : ['| figure | PostgreSQL |', '|---|---|'];
  const line = (figure: string, l: string, p: string, ratio = '', target = '', mark = '') =>
    lmdb ? `| ${figure} | ${l} | ${p} | ${ratio} | ${target} | ${mark} |` : `| ${figure} | ${p} |`;
  const rows = ROWS.map((r) => {
    const p = r.pick(pg.listing);
    if (!lmdb) return line(r.figure, '', r.show(p));
    const l = r.pick(lmdb.listing);
    const ratio = p / l;
    if (r.context) return line(r.figure, r.show(l), r.show(p), ratio.toFixed(2));
    return line(r.figure, r.show(l), r.show(p), ratio.toFixed(2), 'within 2x', ratio <= 2 ? 'pass' : 'FAIL');
  });
  const build = (lib: LibraryFacts) => `${lib.buildSeconds} s`;
  const fresh = pg.freshNode;
  const rebuild =
    fresh.rebuildMs === null
      ? '(no rebuild logged)'
      : `${ms(fresh.rebuildMs)} (${fresh.nodes} nodes, ${fresh.layouts} layouts)`;
  return [
    `The same library (${pg.lib.files} files, ${pg.lib.jobs} jobs, ${pg.lib.articles} articles, big folder ${pg.lib.bigFolderEntries} entries) on each store; PostgreSQL 15 on loopback, started by the bench, a fresh database; the node serves its tree from its local LMDB replica.`,
    '',
    ...head,
    ...rows,
    line(
      'library build through the app (layouts, nodes, health records)',
      lmdb ? build(lmdb.lib) : '',
      build(pg.lib),
      lmdb ? (pg.lib.buildSeconds / lmdb.lib.buildSeconds).toFixed(2) : '',
    ),
    line('PostgreSQL database size after the build', '', `${(pg.databaseBytes / 2 ** 20).toFixed(0)} MiB`),
    line('a fresh node (empty data dir, same database): start to ready', '', ms(fresh.readyMs)),
    line('its tree replica rebuilt from the tables (its log line)', '', rebuild),
  ].join('\n');
}
