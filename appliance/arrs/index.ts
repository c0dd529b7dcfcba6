/**
 * The arrs domain (docs/arrs.md): a typed client of the Radarr/Sonarr v3 API and the console's connection test. The
 * repair of a broken file through an arr uses this client from appliance/repair (arr-repair.service.ts).
 *
 *   const arrs = createArrs({ config });
 *   await arrs.service.testConnection({ type: 'radarr', url, api_key });
 */
import type { ConfigService, RedactedArrInstance } from '../config/index.js';
import { ArrsService } from './arrs.service.js';

export { ArrClient, type ArrClientOptions } from './arr.client.js';
export { ArrError, type ArrErrorKind } from './arr.errors.js';
export { ArrsService } from './arrs.service.js';
export type { ArrInstanceView, ArrsConfigView, ArrTestInput, ArrTestResult, ArrType } from './arrs.wire.js';
import type { ArrInstanceView } from './arrs.wire.js';

/** GET /api/config answers RedactedArrInstance; the console reads ArrInstanceView. A drift is a type error here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const ARR_VIEW_MATCHES_CONFIG: Same<RedactedArrInstance, ArrInstanceView> = true;

export interface ArrsDomain {
  service: ArrsService;
}

export function createArrs(deps: { config: ConfigService }): ArrsDomain {
  return { service: new ArrsService(deps.config) };
}
