/**
 * The arrs domain (docs/arrs.md): a typed client of the Radarr/Sonarr v3 API, the console's connection test, and
 * the repair the health domain calls for a broken file.
 *
 *   const arrs = createArrs({ config, logger });
 *   await arrs.service.testConnection({ type: 'radarr', url, api_key });
 *   await arrs.repair.repairFile({ path: '/complete/movies/Job/film.mkv', downloadId });
 */
import type { ConfigService, RedactedArrInstance } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { ArrsService } from './arrs.service.js';
import { ArrRepairService } from './repair.service.js';

export { ArrClient, type ArrClientOptions } from './arr.client.js';
export { ArrError, type ArrErrorKind } from './arr.errors.js';
export { ArrsService } from './arrs.service.js';
export { ArrRepairService, type RepairInput, type RepairOutcome } from './repair.service.js';
export type { ArrInstanceView, ArrsConfigView, ArrTestInput, ArrTestResult, ArrType } from './arrs.wire.js';
import type { ArrInstanceView } from './arrs.wire.js';

/** GET /api/config answers RedactedArrInstance; the console reads ArrInstanceView. A drift is a type error here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const ARR_VIEW_MATCHES_CONFIG: Same<RedactedArrInstance, ArrInstanceView> = true;

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
