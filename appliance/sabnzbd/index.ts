/**
 * The SABnzbd-compatible download-client API (docs/sabnzbd.md):
 *
 *   const sabnzbd = createSabnzbd({ importer, config, vfs, store, auth, logger });
 *   sabnzbd.registerRoutes(router);   // /sabnzbd/api and /api?mode=...
 *   sabnzbd.nzo.of(queueItemId)       // the nzo_id Radarr/Sonarr know the job by (the arr's download id)
 */
import type { AuthDomain } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import type { Router } from '../http/router.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { FallbackClient, forwardTo } from './fallback.client.js';
import { NzoIds } from './nzo-ids.js';
import { registerSabnzbdRoutes } from './sabnzbd.routes.js';
import { SabnzbdService } from './sabnzbd.service.js';

export { NzoIds } from './nzo-ids.js';
export { SabnzbdService, SAB_VERSION } from './sabnzbd.service.js';
export { SAB_MODES } from './sabnzbd.modes.js';
export * from './sabnzbd.types.js';

export interface SabnzbdDomainDeps {
  importer: ImporterDomain;
  config: ConfigService;
  vfs: VfsService;
  store: Store;
  auth: AuthDomain;
  logger: Logger;
}

export interface SabnzbdDomain {
  service: SabnzbdService;
  nzo: NzoIds;
  registerRoutes(router: Router): void;
}

export function createSabnzbd(deps: SabnzbdDomainDeps): SabnzbdDomain {
  const nzo = new NzoIds(deps.store);
  const logger = deps.logger.child('sabnzbd');
  const fallback = new FallbackClient(() => {
    const c = deps.config.get().sabnzbd;
    return { host: c.fallback_host, apiKey: c.fallback_api_key };
  });
  deps.importer.onUnstreamable(forwardTo(fallback, deps.importer, logger));
  const service = new SabnzbdService({ importer: deps.importer, config: deps.config, vfs: deps.vfs, nzo, fallback });
  return {
    service,
    nzo,
    registerRoutes: (router) =>
      registerSabnzbdRoutes(router, { sab: service, config: deps.config, auth: deps.auth, logger }),
  };
}
