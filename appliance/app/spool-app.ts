import type { AuthDomain } from '../auth/index.js';
import type { BackupsService, PreparedRestore } from '../backup/index.js';
import type { ArrsDomain } from '../arrs/index.js';
import type { Clock } from '../clock/clock.js';
import type { DiagnosticsToolkit } from '../diagnostics/index.js';
import type { DiagnosticsOverrides } from './diagnostics.js';
import type { ConfigService } from '../config/index.js';
import type { EventBus, SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';
import type { FileRepairer, Repairs } from '../repair/index.js';
import type { UwsHandler } from '../http/front.js';
import type { InflightCounter } from '../http/inflight.js';
import type { LiveEndpoint } from '../http/live.js';
import type { Router } from '../http/router.js';
import type { RunningServer } from '../http/server.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger, LogLevel } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { Leadership } from './cluster/leadership.js';
import type { SabnzbdDomain } from './sabnzbd.js';
import type { SpoolStores } from './spool-stores.js';
import type { Streaming } from './streaming.js';

export interface AppOptions {
  /** Data directory (default SPOOL_DATA or ./data). */
  dataDir?: string;
  /** Config file (default SPOOL_CONFIG or <dataDir>/config.yaml; written with defaults on first start). */
  configPath?: string;
  logger?: Logger;
  /** The built console (default <project>/dist/pwa). */
  staticDir?: string;
  /** An already opened config (main.ts opens it first to learn the port); otherwise read from the file. */
  config?: ConfigService;
  /** Overrides `log.level` (SPOOL_LOG_LEVEL, for debugging a config that says otherwise). */
  logLevel?: LogLevel;
  /** How long a stop waits for requests in progress before closing their connections. */
  drainTimeoutMs?: number;
  /** Time for every domain (default the real clock); tests pass a fake one to move time by hand. */
  clock?: Clock;
  /** Replaces the arr repair (tests of the repair loop); by default repair/arr-repair.service.ts. */
  repairer?: FileRepairer;
  /** Kernel read-ahead for the FUSE mount in KiB (main.ts: SPOOL_FUSE_READ_AHEAD_KB); 0 = the kernel's default. */
  fuseReadAheadKb?: number;
  /** A PostgreSQL URL (main.ts: SPOOL_DATABASE_URL) that wins over metadata.database_url (app/stores.ts). */
  databaseUrl?: string;
  /** This node's name in logs and in the leader lease (main.ts: SPOOL_NODE_ID); default host, pid and a random part. */
  nodeId?: string;
  /** The leader lease's timings in ms (tests of a handover shorten them; store/pg/leader-lease.ts). */
  lease?: { retryMs?: number; heartbeatMs?: number };
  /** What the diagnostics read instead of the real host (tests: a /proc root, the mount's facts, a private CA). */
  diagnostics?: DiagnosticsOverrides;
}

export interface RestartRequest {
  force: boolean;
  /** A restore checked and staged (app/backups.ts): the supervisor swaps it in once the app has stopped. */
  restore?: PreparedRestore;
}

export interface SpoolApp {
  readonly router: Router;
  readonly config: ConfigService;
  /** The node's LMDB environment (`stores.local`). */
  readonly store: Store;
  /** Every storage port, on LMDB or PostgreSQL (app/stores.ts). */
  readonly stores: SpoolStores;
  /** This node's name, and whether it leads (does the background work; always on LMDB). */
  readonly nodeId: string;
  readonly leadership: Leadership;
  readonly auth: AuthDomain;
  /** The virtual tree, the reader, WebDAV locks, the mount, rclone (the importer writes jobs through streaming.vfs). */
  readonly streaming: Streaming;
  /** The import queue, runner and directory scan. */
  readonly importer: ImporterDomain;
  /** Radarr/Sonarr: the connection test. */
  readonly arrs: ArrsDomain;
  /**
   * Repair (appliance/repair): the loop (PAR2 first, then `arr`, which asks the arr that owns a broken file to
   * replace it), the brake, and `control` (the brake's release, the repair history, the broken releases).
   */
  readonly repair: Repairs & { readonly arr: FileRepairer };
  /** The SABnzbd API (nzo_ids of queue items: the arrs' download ids). */
  readonly sabnzbd: SabnzbdDomain;
  /** File health: records, checks, verdicts; `repair` acts on them. */
  readonly health: HealthDomain;
  /** The operator's toolkit (appliance/diagnostics): checks, the provider speed test, the support bundle. */
  readonly diagnostics: DiagnosticsToolkit;
  /** What happens in Spool (appliance/events/spool-events.ts): domains emit, subscribers are wired here. */
  readonly events: EventBus<SpoolEvents>;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly version: string;
  /** The uWS request handler; mount it on a Front (main.ts) or let `start` make one (tests). */
  readonly handler: UwsHandler;
  /** The live channel (`/api/live`, a WebSocket); mounted on the Front beside `handler`. */
  readonly live: LiveEndpoint;
  readonly inflight: InflightCounter;
  /** Resolves when POST /api/system/restart asked for a rebuild (main.ts runs the loop). */
  readonly restartRequested: Promise<RestartRequest>;
  /** Backups and restores (appliance/backup, app/backups.ts). */
  readonly backups: BackupsService;
  /** Listens on host:port (0 = any free port) with a Front of its own. */
  start(host: string, port: number): Promise<RunningServer>;
  /** Stops accepting, lets requests in progress finish (bounded), then closes every domain and the store. */
  stop(): Promise<void>;
}
