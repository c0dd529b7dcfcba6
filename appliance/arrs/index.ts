/**
 * The arrs domain (docs/arrs.md): a typed client of the Radarr/Sonarr v3 API, the console's connection test, and
 * the repair the health domain calls for a broken file.
 *
 *   const arrs = createArrs({ config, logger });
 *   await arrs.service.testConnection({ type: 'radarr', url, api_key });
 *   await arrs.repair.repairFile({ path: '/complete/movies/Job/film.mkv', downloadId });
 */
import type { ConfigService } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { ArrsService } from './arrs.service.js';
import { ArrRepairService } from './repair.service.js';

export { ArrClient, type ArrClientOptions } from './arr.client.js';
export { ArrError, type ArrErrorKind } from './arr.errors.js';
export { ArrsService } from './arrs.service.js';
export { ArrRepairService, type RepairInput, type RepairOutcome } from './repair.service.js';
export type { ArrTestInput, ArrTestResult, ArrType } from './arr.types.js';

export interface ArrsDomain {
  service: ArrsService;
  repair: ArrRepairService;
}

export function createArrs(deps: { config: ConfigService; logger: Logger }): ArrsDomain {
  return {
    service: new ArrsService(deps.config),
    repair: new ArrRepairService({ config: deps.config, logger: deps.logger.child('arrs') }),
  };
}
