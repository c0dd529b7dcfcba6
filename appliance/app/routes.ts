import type { AuthDomain } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import type { Router } from '../http/router.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import type { NntpPool } from '../nntp/index.js';
import { registerAuthRoutes } from '../api/auth.routes.js';
import { registerConfigRoutes } from '../api/config.routes.js';
import { registerFilesRoutes } from '../api/files.routes.js';
import { registerImportRoutes } from '../api/import.routes.js';
import { registerPoolRoutes } from '../api/pool.routes.js';
import { registerAvailabilityRoutes } from '../api/availability.routes.js';
import { registerFitRoutes } from '../api/fit.routes.js';
import type { FitService } from '../providers/fit.service.js';
import { registerProviderRoutes } from '../api/providers.routes.js';
import { registerProviderStatusRoutes } from '../api/provider-status.routes.js';
import { registerQueueRoutes } from '../api/queue.routes.js';
import { registerRcloneRoutes } from '../api/rclone.routes.js';
import { registerSystemRoutes } from '../api/system.routes.js';
import { registerUsersRoutes } from '../api/users.routes.js';
import { registerApiKeysRoutes } from '../api/api-keys.routes.js';
import { registerSabnzbdRoutes } from '../api/sabnzbd.routes.js';
import { registerArrsRoutes } from '../api/arrs.routes.js';
import type { ArrsDomain } from '../arrs/index.js';
import type { SabnzbdDomain } from './sabnzbd.js';
import { registerHealthRoutes } from '../api/health.routes.js';
import { registerMetricsRoutes } from '../api/metrics.routes.js';
import type { SpoolMetrics } from '../metrics/index.js';
import { registerNotificationsRoutes } from '../api/notifications.routes.js';
import { registerMediaServersRoutes } from '../api/mediaservers.routes.js';
import type { MediaServersService } from '../mediaservers/index.js';
import type { Notifier } from '../notify/index.js';
import type { HealthDomain } from '../health/index.js';
import type { RepairControl } from '../repair/index.js';
import { registerWebdav } from '../webdav/webdav.routes.js';
import { registerStreamLinks } from '../webdav/stream-link.routes.js';
import { registerStreamLinkRoutes } from '../api/stream-links.routes.js';
import type { StreamLinkService } from '../streamlinks/index.js';
import type { Streaming } from './streaming.js';
import { registerStreamsRoutes } from '../api/streams.routes.js';
import type { StreamRegistry } from '../streams/stream-registry.js';
import type { ProviderAvailability } from '../providers/availability.js';
import type { QuotaMeter } from '../providers/quota-meter.js';
import type { ClusterStreams } from '../streams/cluster-streams.js';
import type { BackupsService } from '../backup/index.js';
import { registerBackupRoutes } from '../api/backups.routes.js';
import { registerDiagnosticsRoutes } from '../api/diagnostics.routes.js';
import type { DiagnosticsToolkit } from '../diagnostics/index.js';

const MIB = 1024 * 1024;
/** The WebDAV route's body ceiling: the largest webdav.max_sidecar_size_mb the schema allows; each PUT narrows it. */
const SIDECAR_BODY_CEILING = 256 * MIB + 1;
/** The largest backup archive an upload takes (POST /api/system/backups/upload): 64 GiB. */
const BACKUP_UPLOAD_LIMIT = 64 * 1024 * MIB;

/** Every service a route may use, built by createApp. Each route module takes only the ones it names. */
export interface RouteServices {
  config: ConfigService;
  auth: AuthDomain;
  logger: Logger;
  pool: NntpPool;
  streaming: Streaming;
  importer: ImporterDomain;
  arrs: ArrsDomain;
  sabnzbd: SabnzbdDomain;
  health: HealthDomain;
  /** The repair brake and history (appliance/repair), served under /api/health/repairs. */
  repairs: RepairControl;
  metrics: SpoolMetrics;
  streams: StreamRegistry;
  /** Several nodes only: every node's open streams (app/cluster/streams.ts). */
  clusterStreams?: ClusterStreams;
  notifier: Notifier;
  mediaServers: MediaServersService;
  /** Signed read-only stream links (appliance/streamlinks): /stream/* and /api/files/links. */
  links: StreamLinkService;
  /** Availability from real traffic (appliance/providers/). */
  availability: ProviderAvailability;
  /** Quotas and expiry (appliance/providers/quota-meter.ts). */
  quota: QuotaMeter;
  /** The operator's toolkit (appliance/diagnostics): checks, speed test, support bundle. */
  diagnostics: DiagnosticsToolkit;
  /** The fit report and the cost view (appliance/providers/fit.service.ts). */
  fit: FitService;
  requestRestart(force: boolean): void;
  /** Backups and restores (appliance/backup): /api/system/backups. */
  backups: BackupsService;
}

/**
 * The route table: every HTTP route of Spool is registered here and nowhere else (/ping, /api/*, /sabnzbd/api,
 * /webdav, /metrics). A new domain adds one line. The router matches the most specific route first, so order is free.
 */
export function registerRoutes(router: Router, s: RouteServices): void {
  registerSystemRoutes(router, s);
  registerBackupRoutes(router, s.backups, BACKUP_UPLOAD_LIMIT);
  registerDiagnosticsRoutes(router, s);
  registerAuthRoutes(router, s);
  registerUsersRoutes(router, s);
  registerApiKeysRoutes(router, s);
  registerConfigRoutes(router, s);
  registerProviderRoutes(router, s);
  registerAvailabilityRoutes(router, s);
  registerProviderStatusRoutes(router, s);
  registerFitRoutes(router, s);
  registerPoolRoutes(router, s);
  registerQueueRoutes(router, s);
  registerImportRoutes(router, s);
  registerFilesRoutes(router, { vfs: s.streaming.vfs, health: (path) => s.health.service.fileHealth(path) });
  registerRcloneRoutes(router, s.streaming);
  registerSabnzbdRoutes(router, {
    sab: s.sabnzbd.service,
    config: s.config,
    auth: s.auth,
    logger: s.logger.child('sabnzbd'),
  });
  registerArrsRoutes(router, s);
  registerMediaServersRoutes(router, s);
  registerHealthRoutes(router, s.health, s.repairs);
  registerMetricsRoutes(router, s);
  registerStreamsRoutes(router, { registry: s.streams, handles: s.streaming.handles, cluster: s.clusterStreams });
  registerNotificationsRoutes(router, s);
  registerWebdav(router, webdavDeps(s), SIDECAR_BODY_CEILING);
  registerStreamLinks(router, s.links, webdavDeps(s));
  registerStreamLinkRoutes(router, { links: s.links, vfs: s.streaming.vfs });
}

function webdavDeps({ streaming, config, logger }: RouteServices) {
  const { vfs, reader, handles, locks } = streaming;
  const sidecarMaxBytes = () => config.get().webdav.max_sidecar_size_mb * MIB;
  return { vfs, reader, handles, locks, logger: logger.child('webdav'), sidecarMaxBytes };
}
