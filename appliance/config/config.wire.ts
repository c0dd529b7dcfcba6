/**
 * The config as the API answers it, and the server's config constants the console's forms share
 * (docs/console-contract.md §3 shapes, §9 defaults, §5 number ranges and fallbacks), so the two can never disagree.
 * defaults.ts and fallbacks.ts are pure data with no Node imports, and the shapes come from the zod schema as types
 * only (`npm run lint` checks what a wire file loads); the console imports them through this file only.
 */
import type {
  ArrInstance,
  ArrsConfig,
  ImportConfig,
  MediaServerEntry,
  MediaServersConfig,
  NotificationsConfig,
  NotifyTargetConfig,
  PatchableSection,
  ProviderConfig,
  RcloneConfig,
  SabnzbdConfig,
  SpoolConfig,
  WebdavConfig,
  AuthConfig,
} from './schema.js';

export { DEFAULTS, PROVIDER_DEFAULTS } from './defaults.js';
export { NUMERIC_FALLBACKS, type NumericField } from './fallbacks.js';
export { RESTART_REQUIRED_FIELDS } from './restart-fields.js';
export type { ProviderConfig } from '../nntp/types.js';

/** A secret `K` of `T` as answers carry it: never the value, `<K>_set` says whether one is stored (secrets.ts). */
type Redact<T, K extends keyof T & string> = Omit<T, K> & { [P in `${K}_set`]: boolean };
/** A provider as GET /api/config and /api/providers answer it. */
export type RedactedProvider = Redact<ProviderConfig, 'password'>;
export type RedactedArrInstance = Redact<ArrInstance, 'api_key'>;
/** A secret list answers with whether it holds anything and how many entries, never the entries. */
export type RedactedImport = Redact<ImportConfig, 'archive_passwords'> & { archive_passwords_count: number };
/** GET /api/config: the whole config, secrets write-only. */
export type RedactedNotifyTarget = Redact<NotifyTargetConfig, 'token'>;
export type RedactedMediaServer = Redact<MediaServerEntry, 'token'>;
export type RedactedConfig = Omit<
  SpoolConfig,
  'webdav' | 'auth' | 'import' | 'providers' | 'rclone' | 'sabnzbd' | 'arrs' | 'notifications' | 'media_servers'
> & {
  webdav: Redact<WebdavConfig, 'password'>;
  auth: Redact<AuthConfig, 'oidc_client_secret'>;
  import: RedactedImport;
  providers: RedactedProvider[];
  rclone: Redact<RcloneConfig, 'rc_pass'>;
  sabnzbd: Redact<SabnzbdConfig, 'fallback_api_key'>;
  arrs: Omit<ArrsConfig, 'radarr_instances' | 'sonarr_instances'> & {
    radarr_instances: RedactedArrInstance[];
    sonarr_instances: RedactedArrInstance[];
  };
  notifications: Omit<NotificationsConfig, 'targets'> & { targets: RedactedNotifyTarget[] };
  media_servers: Omit<MediaServersConfig, 'servers'> & { servers: RedactedMediaServer[] };
};

/** What every config write (and reload) answers: the new redacted config and the restart-only fields changed. */
export interface ConfigWriteResult {
  config: RedactedConfig;
  restart_required: string[];
}

/** The sections PATCH /api/config/{section} takes (schema.ts `PATCHABLE_SECTIONS`). */
export type ConfigSectionName = PatchableSection;
