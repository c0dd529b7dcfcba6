/**
 * Shapes the API returns, under the console's names. The server defines every one in its wire files
 * (appliance/<domain>/*.wire.ts, docs/contributing.md "Wire types"); the console declares none of its own.
 */
export type {
  UserJson as User,
  AuthConfigJson as AuthConfig,
  RegistrationStatus,
} from '../../../appliance/auth/auth.wire';
export type { QueueStats } from '../../../appliance/importer/queue.wire';
export type { PoolMetrics, ProviderMetrics } from '../../../appliance/nntp/pool.wire';
export type { HealthStatsJson as HealthStats } from '../../../appliance/health/health.wire';
/** What the live channel (`/api/live`, a WebSocket) sends: its topics, their payloads, the hello. */
export type {
  LiveEventMap,
  LiveEventMessage,
  LiveFeature,
  LiveHello,
  LiveMessage,
  LiveTopic,
} from '../../../appliance/events/live.wire';
export { LIVE_PATH, LIVE_TOPICS, LIVE_TOPIC_TRAITS, liveTopicsWhere } from '../../../appliance/events/live.wire';
export type {
  ArrInstanceView,
  ArrsConfigView,
  ArrTestInput,
  ArrTestResult,
  ArrType,
} from '../../../appliance/arrs/arrs.wire';
export type {
  NotifyKind,
  NotifyTargetType,
  NotifyTargetView,
  NotifyTestInput,
  NotifyTestResult,
} from '../../../appliance/notify/notify.wire';
export { NOTIFY_KINDS, NOTIFY_KIND_LABELS, NOTIFY_TARGET_TYPES } from '../../../appliance/notify/notify.wire';
export type {
  MediaServerKind,
  MediaServerRefreshJson,
  MediaServerTestJson,
} from '../../../appliance/mediaservers/mediaservers.wire';
export { MEDIA_SERVER_KINDS, MEDIA_SERVER_KIND_LABELS } from '../../../appliance/mediaservers/mediaservers.wire';
import type { RedactedConfig } from '../../../appliance/config/config.wire';
export type { ConfigSectionName, ConfigWriteResult } from '../../../appliance/config/config.wire';

/** The whole configuration as GET /config answers it: secrets are write-only (`<name>_set` says one is stored). */
export type SpoolConfig = RedactedConfig;
export type WebdavConfig = SpoolConfig['webdav'];
export type AuthSectionConfig = SpoolConfig['auth'];
export type MetadataConfig = SpoolConfig['metadata'];
export type StreamingConfig = SpoolConfig['streaming'];
export type ImportConfig = SpoolConfig['import'];
export type HealthConfig = SpoolConfig['health'];
export type LogConfig = SpoolConfig['log'];
/** The download-client API section; the fallback key is write-only (`fallback_api_key_set`). */
export type SabnzbdConfig = SpoolConfig['sabnzbd'];
/** One SABnzbd category (docs/console-contract.md §3): priority -1 Low, 0 Normal, 1 High; dir is optional. */
export type SabnzbdCategory = SabnzbdConfig['categories'][number];
