import { NOTIFY_KINDS } from '../notify/notify.wire.js';
import type { SpoolConfig } from './schema.js';

/**
 * The one set of defaults (docs/console-contract.md §9; where the contract is silent, the values of AltMount, a
 * comparable Usenet streamer, so a user moving over keeps familiar behaviour; docs/configuration.md lists them all).
 * Paths under the data dir are filled by `defaultsFor(dataDir)` (data-dir-defaults.ts); the values here assume
 * `./data`. No Node imports here: the console imports this file too (through config.wire.ts), so its
 * forms start from exactly these values.
 */
export const DEFAULTS: SpoolConfig = deepFreeze({
  webdav: {
    port: 8080,
    user: 'spool',
    // Empty: no separate WebDAV account; clients sign in with a Spool user or API key.
    password: '',
    // Subtitles, .nfo and artwork are far below 16 MiB; any media file is far above it.
    max_sidecar_size_mb: 16,
  },
  auth: {
    login_required: true,
    // Registration is always open while no user exists; this keeps it open afterwards.
    registration_enabled: false,
    // The console's own address is always trusted; list others (a second hostname) here.
    trusted_origins: [],
    // None: X-Forwarded-* headers are ignored unless the peer is listed here (addresses or CIDR ranges).
    trusted_proxies: [],
    // Forward auth off until a header is named (Authelia, Authentik, Caddy: Remote-User, Remote-Groups).
    forward_user_header: '',
    forward_groups_header: '',
    forward_admin_groups: [],
    forward_readonly_groups: [],
    forward_default_role: 'user',
    password_login: true,
    // OpenID Connect off until an issuer is named.
    oidc_issuer: '',
    oidc_client_id: '',
    oidc_client_secret: '',
    oidc_scopes: 'openid profile email',
    oidc_role_claim: 'groups',
    oidc_admin_values: [],
    oidc_user_values: [],
    oidc_readonly_values: [],
    oidc_display_name: 'OpenID Connect',
  },
  metadata: {
    root_path: './data/metadata',
  },
  streaming: {
    max_cache_size_mb: 128,
    // A cap: a stream keeps 10 articles in flight plus the link's bandwidth-delay product, up to this
    // (appliance/vfs/stream-window.ts); 10 held an 8 MiB read after a seek to two round trips at 20 ms.
    max_download_workers: 32,
    // Tiny holes (a few missing articles) may be served as zeros instead of failing the read. Off by default:
    // a player glitch is better than silently corrupt bytes unless the operator chooses otherwise.
    zero_fill_enabled: false,
    zero_fill_max_articles: 2,
    zero_fill_max_percent: 0.1,
    // A media file's probe articles take about 1.5-2.5 MB: 2 GiB keeps those of the last ~1,000 files imported or
    // scanned, which is what a media server's scan after an import reads (docs/streaming.md, "The probe cache").
    probe_cache_size_mb: 2048,
  },
  import: {
    max_processor_workers: 2,
    queue_processing_interval_seconds: 5,
    segment_sample_percentage: 1,
    max_retries: 3,
    // Radarr/Sonarr move symlinks into their library, never content (docs/sabnzbd.md). The data-dir defaults put
    // import_dir under the data dir; this value stands for a bare DEFAULTS (the console's starting form).
    import_strategy: 'symlink',
    import_dir: '/downloads',
    // Empty: http://localhost:<webdav.port>. Only the strm strategy reads it.
    strm_base_url: '',
    watch_dir: '',
    watch_interval_seconds: 10,
    allowed_file_extensions: [
      '.mkv',
      '.mp4',
      '.avi',
      '.ts',
      '.m4v',
      '.mov',
      '.wmv',
      '.mpg',
      '.mpeg',
      '.m2ts',
      '.webm',
      '.mp3',
      '.flac',
      '.m4a',
      '.epub',
      '.pdf',
      '.cbz',
      '.srt',
      '.ass',
      '.sub',
      '.idx',
      '.nfo',
    ],
    filter_sample_files: true,
    verify_media_headers: true,
    failed_item_retention_hours: 24,
    max_queued_items: 1000,
    stuck_timeout_minutes: 30,
    // The manual scan reads only under these; `defaultsFor` places the default under the data dir.
    scan_roots: ['./data/nzb'],
    show_archive_volumes: false,
    archive_passwords: [],
  },
  health: {
    enabled: false,
    auto_repair_enabled: false,
    max_concurrent_jobs: 1,
    max_retries: 2,
    max_repair_retries: 3,
    check_interval_seconds: 5,
    check_all_segments: false,
    segment_sample_percentage: 5,
    repair_breaker_percent: 30,
    repair_breaker_window_minutes: 30,
    par2_patch_max_mb: 4096,
    repair_delay_minutes: 30,
    stat_budget_per_hour: 100_000,
    body_budget_per_hour: 1200,
    tier_new_max_age_days: 7,
    tier_new_interval_hours: 24,
    tier_recent_max_age_days: 90,
    tier_recent_interval_hours: 168,
    tier_old_interval_hours: 720,
    verified_window_days: 30,
  },
  providers: [],
  rclone: {
    rc_enabled: false,
    rc_url: '',
    rc_port: 5572,
    rc_user: '',
    rc_pass: '',
    rc_options: {},
    mount_enabled: false,
    mount_options: {},
    allow_other: true,
    allow_non_empty: true,
    read_only: false,
    timeout: '10m',
    syslog: true,
    log_level: 'INFO',
    uid: 1000,
    gid: 1000,
    umask: '002',
    buffer_size: '32M',
    attr_timeout: '1s',
    transfers: 4,
    cache_dir: './data/rclone-cache',
    vfs_cache_mode: 'full',
    vfs_cache_max_size: '50G',
    vfs_cache_max_age: '504h',
    read_chunk_size: '32M',
    read_chunk_size_limit: '2G',
    vfs_read_ahead: '128M',
    dir_cache_time: '10m',
    vfs_cache_min_free_space: '1G',
    vfs_disk_space_total: '1G',
    vfs_read_chunk_streams: 4,
    no_mod_time: false,
    no_checksum: false,
    async_read: true,
    vfs_fast_fingerprint: false,
    use_mmap: false,
  },
  mount_path: '/mnt/spool',
  sabnzbd: {
    enabled: false,
    complete_dir: '/complete',
    fallback_host: '',
    fallback_api_key: '',
    // SABnzbd's own defaults; 'movies' and 'tv' are what Radarr and Sonarr send out of the box.
    categories: [
      { name: 'movies', order: 1, priority: 0, dir: 'movies' },
      { name: 'tv', order: 2, priority: 0, dir: 'tv' },
      { name: 'audio', order: 3, priority: 0, dir: 'audio' },
      { name: 'software', order: 4, priority: 0, dir: 'software' },
    ],
  },
  arrs: {
    enabled: false,
    radarr_instances: [],
    sonarr_instances: [],
  },
  log: {
    // Empty: log to stdout only (the container collects it).
    file: '',
    level: 'info',
    max_size: 100,
    max_age: 30,
    max_backups: 10,
    compress: true,
  },
  notifications: {
    enabled: false,
    targets: [],
    min_interval_seconds: 300,
    timeout_seconds: 10,
    queue_size: 50,
    stall_seconds: 30,
    backlog_window_minutes: 60,
    backlog_growth: 500,
  },
  media_servers: {
    enabled: false,
    debounce_seconds: 10,
    timeout_seconds: 10,
    servers: [],
  },
  metrics: {
    // GET /metrics asks for an API key (or a signed-in session) unless this opens it to anyone who can reach it.
    open: false,
  },
  backups: {
    // Every night at 03:00 (the appliance's local time; croner's five-field cron), or 'off'.
    schedule: '0 3 * * *',
    // Keep the newest 7 and none older than 30 days (0: no limit of that kind); kept-forever ones never count.
    keep_count: 7,
    keep_days: 30,
  },
});

/** Defaults for one provider entry (docs/console-contract.md §9). */
export const PROVIDER_DEFAULTS = deepFreeze({
  host: '',
  port: 119,
  username: '',
  password: '',
  max_connections: 10,
  tls: false,
  insecure_tls: false,
  ca: '',
  enabled: true,
  is_backup_provider: false,
  retention_days: null,
  retention_policy: 'last' as const,
  backbone: '',
  block_account: false,
  required: false,
  quota_period: 'none' as const,
  quota_bytes: null,
  quota_reset_day: 1,
  quota_used_bytes: 0,
  expires_on: null,
  candidate: false,
  fit_stats_per_hour: 600,
  price_per_month: null,
  price_per_block: null,
  block_size_gb: null,
});

/** Defaults for one SABnzbd category (docs/console-contract.md §5: a new category defaults to order 1, priority 0, empty dir). */
export const CATEGORY_DEFAULTS = deepFreeze({ order: 1, priority: 0, dir: '' });

/** Defaults for one arr instance (docs/console-contract.md §5: new instances are enabled). */
export const ARR_INSTANCE_DEFAULTS = deepFreeze({ name: '', url: '', api_key: '', enabled: true, root_folder: '' });

/** Defaults for one notification target: enabled, every kind of notice. */
export const NOTIFY_TARGET_DEFAULTS = deepFreeze({ token: '', enabled: true, events: [...NOTIFY_KINDS] });

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
