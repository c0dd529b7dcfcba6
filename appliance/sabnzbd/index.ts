/**
 * The SABnzbd-compatible download-client API (docs/sabnzbd.md). The composition root builds it
 * (appliance/app/sabnzbd.ts) and the route table registers `registerSabnzbdRoutes` (appliance/api/sabnzbd.routes.ts:
 * /sabnzbd/api and /api?mode=..., each mode in appliance/api/sabnzbd.modes.ts);
 * `NzoIds.of(queueItemId)` is the nzo_id Radarr/Sonarr know the job by (the arr's download id).
 */
export { FallbackClient, forwardTo } from './fallback.client.js';

export { NzoIds } from './nzo-ids.js';
export { DownloadTotals, type ProviderCounters, type ServerStats, type Sums } from './download-totals.js';
export { LmdbDownloadTotalsStore } from './download-totals.store.js';
export { LmdbNzoIdStore } from './nzo-ids.store.js';
export type { DownloadTotalsStore, NzoIdStore } from './sabnzbd.port.js';
export { SabnzbdService, SAB_VERSION } from './sabnzbd.service.js';
export { fetchNzb } from './nzb-fetch.client.js';
export { toSabXml } from './sabnzbd.xml.js';
export * from './sabnzbd.types.js';
