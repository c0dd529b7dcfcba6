/**
 * The health domain on real parts (LMDB in a temp dir, the real config file and VFS tree) with an in-process
 * article client for fault injection and a ManualClock, for unit tests of checks, schedule, repair and breaker.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stringify } from 'yaml';
import type { ArticleClient } from '../../../appliance/articles/index.js';
import { wireHealthEvents } from '../../../appliance/app/health-events.js';
import { ManualClock } from '../../../appliance/clock/manual-clock.js';
import { ConfigService } from '../../../appliance/config/index.js';
import { EventBus, type SpoolEvents } from '../../../appliance/events/index.js';
import {
  createHealth,
  openHealthStore,
  type HealthDeps,
  type HealthDomain,
  type HealthStore,
} from '../../../appliance/health/index.js';
import {
  createRepairs,
  type FileRepairer,
  type RepairLedger,
  type RepairOutcome,
  type Repairs,
} from '../../../appliance/repair/index.js';
import { openPgRepairLedger } from '../../../appliance/repair/repair-ledger-pg.store.js';
import { openRepairLedger } from '../../../appliance/repair/repair-ledger.store.js';
import { memoryLogger } from '../../../appliance/logging/logger.js';
import {
  AbortedError,
  ArticleMissingError,
  CorruptArticleError,
  TimeoutError,
  type DecodedArticle,
  type RequestPriority,
} from '../../../appliance/nntp/index.js';
import { openPgHealthStore } from '../../../appliance/health/health-pg.store.js';
import { openStore, type Store } from '../../../appliance/store/index.js';
import { openPgDb, type PgDb } from '../../../appliance/store/pg/index.js';
import { LmdbTreeStore } from '../../../appliance/vfs/tree.store.js';
import { VfsService } from '../../../appliance/vfs/vfs.service.js';
import { waitUntil } from '../wait.js';
import { openTreeNodes } from '../../../appliance/vfs/tree-nodes.store.js';

export const ARTICLE = 1000;

/** Articles by id: 'missing' answers 430 to STAT and BODY, 'damaged' passes STAT but fails BODY's CRC. */
export class FakeArticles implements ArticleClient {
  missing = new Set<string>();
  damaged = new Set<string>();
  /** Every request times out (the providers are down). */
  down = false;
  /** Requests wait until released (to hold a check running). */
  hold: Promise<void> | undefined;
  requests: { kind: 'stat' | 'body'; id: string; lane: RequestPriority }[] = [];

  private async answer(kind: 'stat' | 'body', id: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }) {
    this.requests.push({ kind, id, lane: opts?.priority ?? 'import' });
    if (opts?.signal?.aborted) throw new AbortedError();
    if (this.hold) {
      const signal = opts?.signal;
      await Promise.race([
        this.hold,
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true })),
      ]);
    }
    if (this.down) throw new TimeoutError('connect timed out');
    if (this.missing.has(id)) throw new ArticleMissingError(id);
    if (kind === 'body' && this.damaged.has(id)) throw new CorruptArticleError(`CRC mismatch in ${id}`);
  }

  async stat(id: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<boolean> {
    try {
      await this.answer('stat', id, opts);
      return true;
    } catch (err) {
      if (err instanceof ArticleMissingError) return false;
      throw err;
    }
  }

  async body(id: string, opts?: { priority?: RequestPriority; signal?: AbortSignal }): Promise<DecodedArticle> {
    await this.answer('body', id, opts);
    return { data: Buffer.alloc(ARTICLE), messageId: id } as DecodedArticle;
  }
}

/** Records repair calls and answers with the queued outcomes (then 'triggered'). */
export class FakeRepairer implements FileRepairer {
  calls: { path: string; downloadId?: string }[] = [];
  outcomes: RepairOutcome[] = [];
  async repairFile(input: { path: string; downloadId?: string }): Promise<RepairOutcome> {
    this.calls.push(input);
    return this.outcomes.shift() ?? { kind: 'triggered' };
  }
}

export interface HealthHarness {
  health: HealthDomain;
  /** The repairs acting on its verdicts (appliance/repair createRepairs), with the FakeRepairer as the arr. */
  repairs: Repairs;
  vfs: VfsService;
  config: ConfigService;
  clock: ManualClock;
  articles: FakeArticles;
  repairer: FakeRepairer;
  store: Store;
  /** The health store on `store` (its verdicts are the VFS's port). */
  healthStore: HealthStore;
  logs: string[];
  /** The bus the domain announces on (health.record.changed, health.check.done, repair.*). */
  events: EventBus<SpoolEvents>;
  /** Waits (real time, tests/support/wait.ts) until `cond` holds: the tree's events reach health asynchronously. */
  until(cond: () => boolean | Promise<boolean>): Promise<void>;
  /** Lets the worker run until no check is running or queued. */
  drain(): Promise<void>;
  /** Adds a job of one file of `count` articles ids `<name>-<i>`; returns its path. */
  addFile(name: string, count: number): Promise<string>;
  close(): Promise<void>;
}

/** Where the harness keeps health: the LMDB store on its own LMDB environment unless a test opens another. */
export interface HarnessStores {
  /** Opens the health store (the PostgreSQL run: tests/integration/postgres/health-store-pg.test.ts). */
  openHealth?: (store: Store, events: EventBus<SpoolEvents>) => Promise<HealthStore>;
  /** Opens the repair ledger (after the health store); the LMDB one on `store` unless given. */
  openLedger?: (store: Store) => Promise<RepairLedger>;
}

/** `health` config keys over these defaults; repairs run at once after their verdict unless a test says otherwise. */
export async function healthHarness(
  health: Record<string, unknown> = {},
  deps: Pick<HealthDeps, 'playback' | 'startWorker'> = {},
  stores: HarnessStores = {},
): Promise<HealthHarness> {
  const closers: (() => Promise<void>)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'spool-health-'));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({ health: { enabled: true, check_interval_seconds: 60, repair_delay_minutes: 0, ...health } }),
  );
  const log = memoryLogger();
  const config = await ConfigService.open({ configPath, dataDir: dir, logger: log });
  const store = openStore({ rootPath: dir });
  const events = new EventBus<SpoolEvents>(log);
  const onPg = stores.openHealth ? stores : pgFromEnv(closers);
  const openHealth = onPg?.openHealth;
  const healthStore = openHealth ? await openHealth(store, events) : openHealthStore(store, events);
  const ledger = onPg?.openLedger ? await onPg.openLedger(store) : openRepairLedger(store);
  const vfs = new VfsService({
    tree: new LmdbTreeStore({
      nodes: openTreeNodes(store),
      layouts: store.openDb('vfs-layouts'),
      meta: store.openDb('vfs-meta'),
    }),
    sidecarDir: join(dir, 'sidecars'),
    health: healthStore.verdicts,
    events,
  });
  const clock = new ManualClock();
  const articles = new FakeArticles();
  const repairer = new FakeRepairer();
  const until = async (cond: () => boolean | Promise<boolean>) => {
    await waitUntil('the condition', cond, { everyMs: 5 });
  };
  // As createApp wires them (app/health.ts): the repairs act on health's verdicts.
  const wake = { worker: (): void => undefined };
  const repairs = createRepairs({
    store: healthStore,
    ledger,
    config,
    sizeOf: (path) => vfs.stat(path)?.size,
    arr: () => repairer,
    clock,
    logger: log,
    events,
    wake: () => wake.worker(),
  });
  const domain = createHealth({
    store: healthStore,
    config,
    vfs,
    client: articles,
    clock,
    logger: log,
    actions: repairs.actions,
    events,
    ...deps,
  });
  wake.worker = () => domain.runner.wake();
  // As createApp wires it: the tree's changes and config saves reach health over the bus.
  const unwire = wireHealthEvents(events, domain);
  const offConfig = config.on('change', (_n, _p, paths) => events.emit('config.changed', { paths }));
  return {
    health: domain,
    repairs,
    vfs,
    config,
    clock,
    articles,
    repairer,
    store,
    healthStore,
    logs: log.lines,
    events,
    until,
    async drain() {
      // A store answering over the network leaves the runner idle between a timer and its first answer: on
      // PostgreSQL the runner must stay idle for several polls in a row.
      const polls = openHealth ? 10 : 1;
      let quiet = 0;
      await waitUntil(
        'health checks to finish',
        async () => {
          await clock.advance(0);
          const w = await domain.service.workerStatus();
          quiet = domain.runner.idle && w.pending_manual_checks === 0 ? quiet + 1 : 0;
          return quiet >= polls;
        },
        { everyMs: 5 },
      );
    },
    async addFile(name, count) {
      const segments = Array.from({ length: count }, (_, i) => ({
        messageId: `${name}-${i}`,
        start: i * ARTICLE,
        end: (i + 1) * ARTICLE,
      }));
      const { files } = await vfs.addJob({
        category: 'movies',
        jobName: name,
        files: [
          {
            name: `${name}.mkv`,
            size: count * ARTICLE,
            layout: { size: count * ARTICLE, segments },
            sourceNzbPath: `${name}.nzb`,
          },
        ],
      });
      const path = files[0]!;
      await until(async () => ((await healthStore.byPath(path))?.createdAt ?? 0) > 0);
      return path;
    },
    async close() {
      unwire();
      offConfig();
      await domain.close();
      await store.close();
      for (const close of closers.splice(0)) await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `SPOOL_TEST_HEALTH_PG` (a PostgreSQL server's URL; tests/integration/postgres/health-domain-pg.test.ts sets it):
 * every harness keeps health and the repair ledger on PostgreSQL instead, in a new database of that server.
 */
function pgFromEnv(closers: (() => Promise<void>)[]): HarnessStores | undefined {
  const server = process.env.SPOOL_TEST_HEALTH_PG;
  if (!server) return undefined;
  let opened: PgDb | undefined;
  const openHealth: HarnessStores['openHealth'] = async (_store, events) => {
    const name = `spool_health_${process.pid}_${++databases}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
    const url = new URL(server);
    url.pathname = `/${name}`;
    const db = (opened = await openPgDb(url.toString()));
    const health = await openPgHealthStore(db, events);
    closers.push(async () => {
      health.close();
      await db.close();
    });
    return health;
  };
  return { openHealth, openLedger: () => openPgRepairLedger(opened!) };
}
let databases = 0;
