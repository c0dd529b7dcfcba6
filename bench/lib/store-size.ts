/**
 * How much of the LMDB environment each of Spool's databases takes, and per article: the store figure of issue 24
 * ("metadata store bytes per article", docs/performance.md "Metadata store size"). Any bench with an open `Store`
 * calls `storeFigures(store, articles)` after its import and prints `storeFigureRows(...)`; bench/store.bench.ts
 * does, and the scale bench reads the same numbers.
 *
 * Bytes of a database are its pages (branch, leaf and overflow) times the page size: what it occupies in
 * `data.mdb`, slack included. `environmentBytes` is the high-water mark of the file (last page used + 1), which
 * also holds free pages LMDB will reuse.
 */
import type { Store } from '../../appliance/store/index.js';

/** Every named database Spool opens (appliance/**: openDb). */
export const SPOOL_DATABASES = [
  'vfs-layouts',
  'vfs-nodes',
  'health-records',
  'health-index',
  'queue-items',
  'queue-index',
  'queue-nzbs',
  'import-seen',
  'users',
  'user_index',
  'sessions',
  'download-totals',
] as const;

interface LmdbStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
  lastPageNumber?: number;
}

export interface StoreFigures {
  articles: number;
  /** Per database: entries, bytes, bytes per article. */
  databases: { name: string; entries: number; bytes: number; perArticle: number }[];
  /** Sum over the named databases. */
  bytes: number;
  perArticle: number;
  /** The size `data.mdb` has grown to (free pages included). */
  environmentBytes: number;
  environmentPerArticle: number;
}

export function storeFigures(store: Store, articles: number): StoreFigures {
  const stats = (name: string) => store.openDb(name).getStats() as LmdbStats;
  const databases = SPOOL_DATABASES.map((name) => {
    const s = stats(name);
    const bytes = (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages) * s.pageSize;
    return { name, entries: s.entryCount, bytes, perArticle: bytes / articles };
  }).filter((d) => d.entries > 0);
  const env = store.meta.getStats() as LmdbStats;
  const bytes = databases.reduce((sum, d) => sum + d.bytes, 0);
  const environmentBytes = ((env.lastPageNumber ?? 0) + 1) * env.pageSize;
  return {
    articles,
    databases,
    bytes,
    perArticle: bytes / articles,
    environmentBytes,
    environmentPerArticle: environmentBytes / articles,
  };
}

/** Markdown rows `| database | entries | bytes | bytes per article |`, the sum and the whole file last. */
export function storeFigureRows(f: StoreFigures): string[] {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  return [
    '| database | entries | size | bytes per article |',
    '| --- | --- | --- | --- |',
    ...f.databases.map((d) => `| ${d.name} | ${d.entries} | ${kb(d.bytes)} | ${d.perArticle.toFixed(2)} |`),
    `| all databases | | ${kb(f.bytes)} | ${f.perArticle.toFixed(2)} |`,
    `| data.mdb (high-water mark) | | ${kb(f.environmentBytes)} | ${f.environmentPerArticle.toFixed(2)} |`,
  ];
}
