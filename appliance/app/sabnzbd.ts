import type { ConfigService } from '../config/index.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import { FallbackClient, forwardTo, NzoIds, SabnzbdService } from '../sabnzbd/index.js';
import type { Store } from '../store/index.js';
import type { VfsService } from '../vfs/vfs.service.js';

export interface SabnzbdDeps {
  importer: ImporterDomain;
  config: ConfigService;
  vfs: VfsService;
  store: Store;
  logger: Logger;
}

/** The SABnzbd API's state: the nzo_id map and the service the mode table calls (routes: appliance/app/routes.ts). */
export interface SabnzbdDomain {
  service: SabnzbdService;
  nzo: NzoIds;
}

export function buildSabnzbd(deps: SabnzbdDeps): SabnzbdDomain {
  const nzo = new NzoIds(deps.store);
  // sabnzbd.fallback_host: NZBs Spool cannot stream go to that real SABnzbd (read live, so a PATCH applies at once).
  const fallback = new FallbackClient(() => {
    const c = deps.config.get().sabnzbd;
    return { host: c.fallback_host, apiKey: c.fallback_api_key };
  });
  deps.importer.onUnstreamable(forwardTo(fallback, deps.importer, deps.logger.child('sabnzbd')));
  const service = new SabnzbdService({ importer: deps.importer, config: deps.config, vfs: deps.vfs, nzo, fallback });
  return { service, nzo };
}
