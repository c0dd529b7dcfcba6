import type { ConfigService } from '../config/index.js';
import type { ImporterDomain } from '../importer/index.js';
import { NzoIds, SabnzbdService } from '../sabnzbd/index.js';
import type { Store } from '../store/index.js';
import type { VfsService } from '../vfs/vfs.service.js';

export interface SabnzbdDeps {
  importer: ImporterDomain;
  config: ConfigService;
  vfs: VfsService;
  store: Store;
}

/** The SABnzbd API's state: the nzo_id map and the service the mode table calls (routes: appliance/app/routes.ts). */
export interface SabnzbdDomain {
  service: SabnzbdService;
  nzo: NzoIds;
}

export function buildSabnzbd(deps: SabnzbdDeps): SabnzbdDomain {
  const nzo = new NzoIds(deps.store);
  const service = new SabnzbdService({ importer: deps.importer, config: deps.config, vfs: deps.vfs, nzo });
  return { service, nzo };
}
