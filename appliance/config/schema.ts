import { Cron } from 'croner';
import { z } from 'zod';
import { NOTIFY_KINDS, NOTIFY_TARGET_TYPES } from '../notify/notify.wire.js';
import { MEDIA_SERVER_KINDS } from '../mediaservers/mediaservers.wire.js';
import { BACKBONE_NAMES } from '../nntp/backbones.js';
import { USER_ROLES } from './user-roles.wire.js';
import { DATABASE_URL_MESSAGE, isDatabaseUrl } from './database-url.js';
import { EXPIRY_DATE, QUOTA_PERIODS } from './provider-quota.wire.js';

/**
 * The whole YAML config (docs/console-contract.md §3) as one strict zod schema: unknown keys are errors, ranges are docs/console-contract.md §5.
 * Rules that span fields (SABnzbd and arrs when enabled, import dirs) live in rules.ts, so that every bad field is
 * reported at once: zod skips object-level refinements once a field inside has failed.
 */

const rangeMessage = (min: number, max: number) => `Must be between ${min} and ${max}`;

/** A whole number in [min, max], with one message naming the range. */
export const intRange = (min: number, max: number) =>
  z.number().int('Must be a whole number').min(min, rangeMessage(min, max)).max(max, rangeMessage(min, max));

const numberRange = (min: number, max: number) =>
  z.number().min(min, rangeMessage(min, max)).max(max, rangeMessage(min, max));

const port = intRange(1, 65535);
const price = z
  .number('Must be a price, or empty for none')
  .min(0, 'A price cannot be negative')
  .max(1_000_000, 'A price must be at most 1000000')
  .nullable();
const nonBlank = (message: string) => z.string().refine((s) => s.trim().length > 0, message);

// rclone's own value syntaxes: SizeSuffix ("32M", "2G", "off") and Duration ("10m", "1h30m", "504h", "off").
const SIZE = /^(off|\d+(\.\d+)?([bkmgtp]i?b?)?)$/i;
const DURATION = /^(off|0|(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w|M|y))+)$/;
const size = z.string().regex(SIZE, 'Must be a size like 32M, 2G or off');
const duration = z.string().regex(DURATION, 'Must be a duration like 1s, 10m, 504h or off');
const optionMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** The same floor as a user's password (docs/console-contract.md §9): the pair opens the library to anyone who knows it. */
export const MIN_PASSWORD_LENGTH = 8;

export const webdavSchema = z.strictObject({
  port,
  user: z.string(),
  // Empty means no separate WebDAV account.
  password: z
    .string()
    .refine(
      (s) => s === '' || s.length >= MIN_PASSWORD_LENGTH,
      `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
    ),
  // PUT is for sidecars (subtitles, .nfo, artwork); the body is held in memory, so the cap stays modest.
  max_sidecar_size_mb: intRange(1, 256),
});

const OIDC_ISSUER_MESSAGE = 'Must be an https:// URL (http:// only on a loopback address, for tests)';

/** An issuer URL: https, or http on a loopback address (a test provider on this machine). */
function isOidcIssuer(value: string): boolean {
  try {
    const u = new URL(value);
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

export const authSchema = z.strictObject({
  login_required: z.boolean(),
  registration_enabled: z.boolean(),
  // Origins (scheme://host[:port]) besides the console's own whose pages may send state changes with a cookie.
  trusted_origins: z.array(z.string()),
  // Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For/-Proto/-Host are believed.
  trusted_proxies: z.array(z.string()),
  // Forward auth (docs/security.md): the header a trusted proxy names the signed-in user in; '' = off.
  forward_user_header: z.string(),
  // The header listing that user's groups (comma or | separated); '' = none.
  forward_groups_header: z.string(),
  // Groups whose members are administrators; then groups whose members only read; everyone else is a plain user.
  forward_admin_groups: z.array(z.string()),
  forward_readonly_groups: z.array(z.string()),
  // The role of a forwarded user seen for the first time when the proxy sends no groups.
  forward_default_role: z.enum(USER_ROLES, { error: `Must be one of ${USER_ROLES.join(', ')}` }),
  // Sign-in with name and password on the login page; off only once OpenID Connect is set up (rules.ts).
  password_login: z.boolean(),
  // OpenID Connect (docs/security.md "OpenID Connect"): '' = off.
  oidc_issuer: z.string().refine((s) => s === '' || isOidcIssuer(s), OIDC_ISSUER_MESSAGE),
  oidc_client_id: z.string(),
  oidc_client_secret: z.string(),
  oidc_scopes: z.string().refine((s) => s.split(/\s+/).includes('openid'), 'Must include openid'),
  // The claim whose values give the role, and the values for each role (none of them: the sign-in is refused).
  oidc_role_claim: z.string().regex(/^[\w.:-]+$/, 'Must be a claim name like groups'),
  oidc_admin_values: z.array(z.string()),
  oidc_user_values: z.array(z.string()),
  oidc_readonly_values: z.array(z.string()),
  // The button's label on the sign-in page ('Sign in with {name}').
  oidc_display_name: z.string().trim().min(1, 'Required').max(40, 'At most 40 characters'),
});

export const metadataSchema = z.strictObject({
  root_path: nonBlank('Metadata root path is required'),
  // A postgres:// URL selects the shared PostgreSQL store (several nodes); unset or empty keeps LMDB. Env
  // SPOOL_DATABASE_URL wins (main.ts). Its password is masked in answers (secrets.ts).
  database_url: z
    .string()
    .refine((s) => s === '' || isDatabaseUrl(s), DATABASE_URL_MESSAGE)
    .optional(),
});

export const streamingSchema = z.strictObject({
  max_cache_size_mb: intRange(1, 1024),
  max_download_workers: intRange(1, 50),
  zero_fill_enabled: z.boolean(),
  zero_fill_max_articles: intRange(0, 100),
  zero_fill_max_percent: numberRange(0, 100),
  // docs/streaming.md "The probe cache": the disk kept for the articles library scans read (0 = off).
  probe_cache_size_mb: intRange(0, 1048576),
});

export const importSchema = z.strictObject({
  max_processor_workers: intRange(1, 20),
  queue_processing_interval_seconds: intRange(1, 300),
  segment_sample_percentage: intRange(1, 100),
  max_retries: intRange(0, 10),
  import_strategy: z.enum(['none', 'symlink', 'strm']),
  import_dir: z.string(),
  strm_base_url: z.string(),
  watch_dir: z.string(),
  watch_interval_seconds: intRange(1, 3600),
  allowed_file_extensions: z.array(z.string()),
  filter_sample_files: z.boolean(),
  // docs/import.md "Checks before the write": each exposed media file's first bytes must be its container.
  verify_media_headers: z.boolean(),
  failed_item_retention_hours: intRange(0, 8760),
  // docs/import.md "Admission control": adds are refused while this many items are unfinished (0 = no limit).
  max_queued_items: intRange(0, 1000000),
  // docs/import.md "Stuck imports": an import with no progress for this long is aborted and retried (0 = off).
  stuck_timeout_minutes: intRange(0, 1440),
  // The only directories a manual scan may read (relative ones are under the data dir, like metadata.root_path).
  scan_roots: z.array(nonBlank('A scan root cannot be blank')),
  // docs/archives.md: RAR/7z volumes stay in the job beside the files they hold (off: only the inner files show)
  show_archive_volumes: z.boolean(),
  // docs/archives.md: tried on encrypted archives after the item's own and the NZB's passwords; write-only (secrets.ts)
  archive_passwords: z
    .array(z.string().min(1, 'An archive password cannot be empty'))
    .max(100, 'At most 100 passwords'),
});

export const healthSchema = z.strictObject({
  enabled: z.boolean(),
  // Takes effect only while `enabled` is true (docs/console-contract.md §5); kept as set so toggling monitoring does not lose it.
  auto_repair_enabled: z.boolean(),
  max_concurrent_jobs: intRange(1, 10),
  max_retries: intRange(0, 5),
  max_repair_retries: intRange(0, 10),
  check_interval_seconds: intRange(5, 86400),
  check_all_segments: z.boolean(),
  segment_sample_percentage: intRange(1, 100),
  // The repair breaker: more than this share of checked files turning bad within the window pauses repairs.
  repair_breaker_percent: intRange(1, 100),
  repair_breaker_window_minutes: intRange(1, 1440),
  // Bytes PAR2 repairs may keep on disk as patches (docs/health.md "PAR2 repair"); 0 turns PAR2 repair off.
  par2_patch_max_mb: intRange(0, 1_048_576),
  // docs/health.md "The repair brake": an automatic repair waits this long after the verdict, so a wave can engage
  // the brake before any arr deletes anything (0: at once).
  repair_delay_minutes: intRange(0, 1440),
  // What checks may spend (token buckets, docs/health.md "Budget"): articles STATed and fetched whole per hour.
  stat_budget_per_hour: intRange(100, 10_000_000),
  body_budget_per_hour: intRange(1, 1_000_000),
  // Age tiers (docs/health.md "Schedule"): younger than new_max_age_days is new, than recent_max_age_days recent.
  tier_new_max_age_days: intRange(1, 3650),
  tier_new_interval_hours: intRange(1, 8760),
  tier_recent_max_age_days: intRange(1, 3650),
  tier_recent_interval_hours: intRange(1, 8760),
  tier_old_interval_hours: intRange(1, 8760),
  // The Health screen's "verified in the last N days".
  verified_window_days: intRange(1, 365),
});

export const providerSchema = z.strictObject({
  id: nonBlank('Provider id is required'),
  host: nonBlank('Host is required'),
  port,
  username: z.string(),
  password: z.string(),
  max_connections: intRange(1, 50),
  tls: z.boolean(),
  insecure_tls: z.boolean(),
  // PEM certificates (checked in rules.ts: each must parse); the one string allowed line breaks.
  ca: z.string(),
  enabled: z.boolean(),
  is_backup_provider: z.boolean(),
  // Routing (docs/nntp.md "Routing"): days of articles kept (null: unlimited), what to do past them, the backbone
  // group ('' = from the host), a block account (asked after every primary missed), required (no spill while down).
  retention_days: z
    .number('Must be a number of days, or empty for unlimited')
    .int('Must be a whole number of days')
    .min(1, 'Retention must be at least 1 day (leave it empty for unlimited)')
    .max(36500, 'Retention must be at most 36500 days')
    .nullable(),
  retention_policy: z.enum(['last', 'never'], 'Must be "last" (ask it last) or "never" (do not ask it)'),
  backbone: z
    .string()
    .refine(
      (s) => s === '' || BACKBONE_NAMES.includes(s),
      `Unknown backbone: leave it empty to take it from the host, or use one of ${BACKBONE_NAMES.join(', ')}`,
    ),
  block_account: z.boolean(),
  required: z.boolean(),
  // Quota and expiry (docs/nntp.md "Quotas and expiry"): bytes per period, paused at 100% until the period resets.
  quota_period: z.enum(
    QUOTA_PERIODS,
    `Must be one of ${QUOTA_PERIODS.join(', ')} ("none": no quota; "lifetime": a block account's bytes)`,
  ),
  quota_bytes: z
    .number('Must be a number of bytes, or empty for no quota')
    .int('Must be a whole number of bytes')
    .min(1, 'The quota must be a positive number of bytes')
    .max(Number.MAX_SAFE_INTEGER, 'The quota is too large')
    .nullable(),
  // Weekly: 1 (Monday) to 7 (Sunday); monthly: the day of the month (a short month resets on its last day).
  quota_reset_day: intRange(1, 31),
  // Lifetime only: what the account had already used when this figure was set (Spool counts on from there).
  quota_used_bytes: z
    .number('Must be a number of bytes')
    .int('Must be a whole number of bytes')
    .min(0, 'Already used cannot be negative')
    .max(Number.MAX_SAFE_INTEGER, 'Already used is too large'),
  // The day the account ends (YYYY-MM-DD); null: none. A date in the past is refused when set (providers.ts).
  expires_on: z.string().regex(EXPIRY_DATE, 'Must be a date like 2027-03-31, or empty for none').nullable(),
  // The fit report (docs/providers.md "Fit report"): a candidate account is never used for reads, only STAT-sampled
  // against the library, at most fit_stats_per_hour STATs an hour.
  candidate: z.boolean(),
  fit_stats_per_hour: intRange(1, 100_000),
  // What the account costs (docs/providers.md "Cost view"): per month, or per block of block_size_gb gigabytes.
  price_per_month: price,
  price_per_block: price,
  block_size_gb: z
    .number('Must be a number of gigabytes, or empty')
    .positive('The block size must be more than 0 GB')
    .max(1_000_000, 'The block size must be at most 1000000 GB')
    .nullable(),
});

export const rcloneSchema = z.strictObject({
  rc_enabled: z.boolean(),
  rc_url: z.string(),
  rc_port: port,
  rc_user: z.string(),
  rc_pass: z.string(),
  rc_options: optionMap,
  mount_enabled: z.boolean(),
  mount_options: optionMap,
  allow_other: z.boolean(),
  allow_non_empty: z.boolean(),
  read_only: z.boolean(),
  timeout: duration,
  syslog: z.boolean(),
  log_level: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
  uid: intRange(0, 4294967295),
  gid: intRange(0, 4294967295),
  umask: z.string().regex(/^0?[0-7]{3}$/, 'Must be an octal umask like 002'),
  buffer_size: size,
  attr_timeout: duration,
  transfers: intRange(1, 32),
  cache_dir: z.string(),
  vfs_cache_mode: z.enum(['off', 'minimal', 'writes', 'full']),
  vfs_cache_max_size: size,
  vfs_cache_max_age: duration,
  read_chunk_size: size,
  read_chunk_size_limit: size,
  vfs_read_ahead: size,
  dir_cache_time: duration,
  vfs_cache_min_free_space: size,
  vfs_disk_space_total: size,
  vfs_read_chunk_streams: intRange(0, 64),
  no_mod_time: z.boolean(),
  no_checksum: z.boolean(),
  async_read: z.boolean(),
  vfs_fast_fingerprint: z.boolean(),
  use_mmap: z.boolean(),
});

export const categorySchema = z.strictObject({
  name: z.string(),
  order: z.number().int('Must be a whole number'),
  priority: z.literal([-1, 0, 1], 'Must be -1 (Low), 0 (Normal) or 1 (High)'),
  dir: z.string(),
});

export const sabnzbdSchema = z.strictObject({
  enabled: z.boolean(),
  complete_dir: z.string(),
  fallback_host: z.string(),
  fallback_api_key: z.string(),
  categories: z.array(categorySchema),
});

export const arrInstanceSchema = z.strictObject({
  name: z.string(),
  type: z.enum(['radarr', 'sonarr']),
  url: z.string(),
  api_key: z.string(),
  enabled: z.boolean(),
  /** Path of the library as that instance sees it; empty when not set. */
  root_folder: z.string(),
});

export const arrsSchema = z.strictObject({
  enabled: z.boolean(),
  radarr_instances: z.array(arrInstanceSchema),
  sonarr_instances: z.array(arrInstanceSchema),
});

export const logSchema = z.strictObject({
  file: z.string(),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  max_size: intRange(1, 10240),
  max_age: intRange(0, 3650),
  max_backups: intRange(0, 1000),
  compress: z.boolean(),
});

/** One place notices go (docs/notifications.md); `token` is a write-only secret. */
export const notifyTargetSchema = z.strictObject({
  name: nonBlank('A target needs a name'),
  type: z.enum(NOTIFY_TARGET_TYPES),
  url: z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }),
  token: z.string(),
  enabled: z.boolean(),
  events: z.array(z.enum(NOTIFY_KINDS)),
});

export const notificationsSchema = z.strictObject({
  enabled: z.boolean(),
  targets: z.array(notifyTargetSchema),
  min_interval_seconds: intRange(0, 86400),
  timeout_seconds: intRange(1, 120),
  queue_size: intRange(1, 1000),
  stall_seconds: intRange(1, 3600),
  backlog_window_minutes: intRange(1, 1440),
  backlog_growth: intRange(1, 1_000_000),
});

/** A path prefix as Spool (or an arr) knows it, and as the media server sees the same folder. */
export const pathMappingSchema = z.strictObject({
  from: z.string().startsWith('/', 'Must be an absolute path'),
  to: z.string().startsWith('/', 'Must be an absolute path'),
});

/** One Plex, Jellyfin or Emby server told of library changes (docs/mediaservers.md); `token` is write-only. */
export const mediaServerSchema = z.strictObject({
  name: nonBlank('A media server needs a name'),
  kind: z.enum(MEDIA_SERVER_KINDS, 'Must be plex, jellyfin or emby'),
  url: z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }),
  token: z.string(),
  enabled: z.boolean(),
  // Refresh a job's folder when its import completes: for libraries that point at Spool's mount with no arr importing.
  refresh_imports: z.boolean(),
  path_mappings: z.array(pathMappingSchema).max(50, 'At most 50 path mappings'),
});

export const mediaServersSchema = z.strictObject({
  enabled: z.boolean(),
  // Changes wait this long after the first of a burst, then go as one batch per server.
  debounce_seconds: intRange(0, 600),
  timeout_seconds: intRange(1, 120),
  servers: z.array(mediaServerSchema).max(20, 'At most 20 media servers'),
});

/** GET /metrics (docs/metrics.md): `open` serves it without an API key. */
export const metricsSchema = z.strictObject({
  open: z.boolean(),
});

/** A cron expression croner reads (five fields, or six with seconds), or `off`. */
const cronExpression = z.string().refine((expr) => {
  if (expr === 'off') return true;
  try {
    new Cron(expr, { paused: true });
    return true;
  } catch {
    return false;
  }
}, 'Must be a cron expression like 0 3 * * * (minute hour day month weekday), or off');

/** Backups while Spool serves (docs/backups.md): when, and how many and how old are kept. */
export const backupsSchema = z.strictObject({
  schedule: cronExpression,
  keep_count: intRange(0, 1000),
  keep_days: intRange(0, 3650),
});

export const configSchema = z.strictObject({
  webdav: webdavSchema,
  auth: authSchema,
  metadata: metadataSchema,
  streaming: streamingSchema,
  import: importSchema,
  health: healthSchema,
  providers: z.array(providerSchema),
  rclone: rcloneSchema,
  mount_path: z.string(),
  sabnzbd: sabnzbdSchema,
  arrs: arrsSchema,
  log: logSchema,
  notifications: notificationsSchema,
  media_servers: mediaServersSchema,
  metrics: metricsSchema,
  backups: backupsSchema,
});

export type SpoolConfig = z.infer<typeof configSchema>;
export type WebdavConfig = SpoolConfig['webdav'];
export type AuthConfig = SpoolConfig['auth'];
export type MetadataConfig = SpoolConfig['metadata'];
export type StreamingConfig = SpoolConfig['streaming'];
export type ImportConfig = SpoolConfig['import'];
export type HealthConfig = SpoolConfig['health'];
export type ProviderConfig = SpoolConfig['providers'][number];
export type RcloneConfig = SpoolConfig['rclone'];
export type SabnzbdConfig = SpoolConfig['sabnzbd'];
export type SabnzbdCategory = SabnzbdConfig['categories'][number];
export type ArrsConfig = SpoolConfig['arrs'];
export type ArrInstance = ArrsConfig['radarr_instances'][number];
export type LogConfig = SpoolConfig['log'];
export type NotificationsConfig = SpoolConfig['notifications'];
export type NotifyTargetConfig = NotificationsConfig['targets'][number];
export type MetricsConfig = SpoolConfig['metrics'];
export type BackupsConfig = SpoolConfig['backups'];
export type MediaServersConfig = SpoolConfig['media_servers'];
export type MediaServerEntry = MediaServersConfig['servers'][number];

/** Sections the console edits with PATCH /api/config/{section} (providers have their own API). */
export const PATCHABLE_SECTIONS = [
  'webdav',
  'auth',
  'streaming',
  'import',
  'metadata',
  'rclone',
  'system',
  'sabnzbd',
  'arrs',
  'health',
  'log',
  'notifications',
  'media_servers',
  'metrics',
  'backups',
] as const;
export type PatchableSection = (typeof PATCHABLE_SECTIONS)[number];

export { RESTART_REQUIRED_FIELDS } from './restart-fields.js';
