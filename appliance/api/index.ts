import type { ArrsDomain } from '../arrs/index.js';
import type { AuthDomain } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import type { Router } from '../http/router.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import type { NntpPool } from '../nntp/index.js';
import type { Store } from '../store/index.js';
import { registerArrsRoutes } from './arrs.routes.js';
import { registerAuthRoutes } from './auth.routes.js';
import { registerConfigRoutes } from './config.routes.js';
import { registerImportRoutes } from './import.routes.js';
import { registerPoolRoutes } from './pool.routes.js';
import { registerProviderRoutes } from './providers.routes.js';
import { registerQueueRoutes } from './queue.routes.js';
import { registerSabnzbdRoutes } from '../sabnzbd/sabnzbd.routes.js';
import { registerSystemRoutes } from './system.routes.js';
import { registerUsersRoutes } from './users.routes.js';

/** Everything route modules may use. A domain adds its service here (built in app.ts) and its module below. */
export interface ApiDeps {
  config: ConfigService;
  store: Store;
  auth: AuthDomain;
  logger: Logger;
  pool: NntpPool;
  importer: ImporterDomain;
  arrs: ArrsDomain;
  version: string;
  requestRestart(force: boolean): void;
}

/** Registers every HTTP route of Spool: /ping, /api/*, and (as domains land) /sabnzbd/api and /webdav. */
export function registerApiRoutes(router: Router, deps: ApiDeps): void {
  registerSystemRoutes(router, deps);
  registerAuthRoutes(router, deps);
  registerUsersRoutes(router, deps);
  registerConfigRoutes(router, deps);
  registerProviderRoutes(router, deps);
  registerPoolRoutes(router, deps);
  registerQueueRoutes(router, deps);
  registerImportRoutes(router, deps);
  registerSabnzbdRoutes(router, deps);
  registerArrsRoutes(router, deps);
}
