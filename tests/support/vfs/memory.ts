import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { EventBus, type SpoolEvents } from '../../../appliance/events/index.js';
import { ArticleMissingError } from '../../../appliance/nntp/errors.js';
import type { ArticleSource } from '../../../appliance/vfs/article-fetcher.js';
import { LmdbTreeStore } from '../../../appliance/vfs/tree.store.js';
import { NODES_DB_OPTIONS } from '../../../appliance/vfs/tree-nodes.store.js';
import { VfsService } from '../../../appliance/vfs/vfs.service.js';
import type { FileLayout, HealthVerdicts } from '../../../appliance/vfs/types.js';
import type { ReaderSettings } from '../../../appliance/vfs/reader.js';

/**
 * The VFS's health port as plain sets, set by hand (unit tests of the tree); the health domain's own is
 * appliance/health/health.verdicts.ts, kept by its store (tests/integration and appliance/health test it).
 */
export class MemoryVerdicts implements HealthVerdicts {
  readonly corruptedPaths = new Set<string>();
  readonly marks = new Map<string, Set<string>>();
  corrupted(path: string): boolean {
    return this.corruptedPaths.has(path);
  }
  unavailable(path: string, messageId: string): boolean {
    return this.marks.get(path)?.has(messageId) ?? false;
  }
}

/**
 * A real LMDB environment in a temp dir (unit tests of the tree use the real store, not a map); the tree announces
 * its changes on `events`.
 */
export function tempVfs(): {
  vfs: VfsService;
  verdicts: MemoryVerdicts;
  events: EventBus<SpoolEvents>;
  root: RootDatabase;
  dir: string;
  close: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'spool-vfs-'));
  const root = open({ path: join(dir, 'db') });
  const verdicts = new MemoryVerdicts();
  const events = new EventBus<SpoolEvents>();
  const vfs = new VfsService({
    tree: new LmdbTreeStore({
      nodes: root.openDB({ name: 'vfs-nodes', ...NODES_DB_OPTIONS }),
      layouts: root.openDB({ name: 'vfs-layouts' }),
    }),
    sidecarDir: join(dir, 'sidecars'),
    health: verdicts,
    events,
  });
  return {
    vfs,
    verdicts,
    events,
    root,
    dir,
    close: () => {
      void root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Splits `bytes` into articles of `size` bytes: an in-process article source and the matching layout. */
export function memoryArticles(
  bytes: Buffer,
  size: number,
  prefix = 'a',
): { layout: FileLayout; articles: Map<string, Buffer> } {
  const articles = new Map<string, Buffer>();
  const segments = [];
  for (let start = 0, i = 0; start < bytes.length; start += size, i++) {
    const end = Math.min(bytes.length, start + size);
    const messageId = `${prefix}${i}@test`;
    articles.set(messageId, bytes.subarray(start, end));
    segments.push({ messageId, start, end });
  }
  return { layout: { size: bytes.length, segments }, articles };
}

/**
 * Serves articles from a map, with optional latency and missing ids (rejected as the pool does after a 430 from
 * every provider), or `failWith` (an outage: the error the pool gives when providers cannot be reached); counts
 * fetches and cancellations.
 */
export class MapSource implements ArticleSource {
  fetched: string[] = [];
  /** The fetches asked for as urgent (a reader waiting on them now), in order. */
  urgent: string[] = [];
  cancelled = 0;
  missing = new Set<string>();
  failWith: Error | undefined;
  constructor(
    private readonly articles: Map<string, Buffer>,
    private readonly delayMs = 0,
  ) {}

  fetch(messageId: string, opts: { signal: AbortSignal; urgent?: boolean }): Promise<Uint8Array> {
    this.fetched.push(messageId);
    if (opts.urgent) this.urgent.push(messageId);
    return new Promise((resolve, reject) => {
      const done = () => {
        opts.signal.removeEventListener('abort', onAbort);
        const a = this.articles.get(messageId);
        if (this.failWith) reject(this.failWith);
        else if (!a || this.missing.has(messageId)) reject(new ArticleMissingError(messageId));
        else resolve(a);
      };
      const timer = setTimeout(done, this.delayMs);
      const onAbort = () => {
        clearTimeout(timer);
        this.cancelled++;
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Reader settings for unit tests: a 1 MiB cache, 4 fetches per stream, zero-fill off. */
export function testReaderSettings(): ReaderSettings {
  return {
    cacheBytes: 1 << 20,
    workersPerStream: 4,
    zeroFill: { enabled: false, maxHoleBytes: 8000, maxHolesPerFile: 1, maxFileShare: 0.1 },
  };
}
