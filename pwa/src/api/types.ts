/**
 * Shapes the API returns. Those the server defines live in its wire files (appliance/<domain>/*.wire.ts) and are
 * re-exported here; the rest (the console's view of the config) are the console's own until their domain has a
 * wire file.
 */
export type {
  UserJson as User,
  AuthConfigJson as AuthConfig,
  RegistrationStatus,
} from '../../../appliance/auth/auth.wire';
export type { QueueStats } from '../../../appliance/importer/queue.wire';
export type { PoolMetrics } from '../../../appliance/nntp/pool.wire';
export type { HealthStatsJson as HealthStats } from '../../../appliance/health/health.wire';
export type {
  ArrInstanceView,
  ArrsConfigView,
  ArrTestInput,
  ArrTestResult,
  ArrType,
} from '../../../appliance/arrs/arrs.wire';
import type { ArrsConfigView } from '../../../appliance/arrs/arrs.wire';

export interface WebdavConfig {
  port: number;
  user: string;
  password_set?: boolean;
}

export interface AuthSectionConfig {
  login_required: boolean;
  registration_enabled: boolean;
  trusted_origins?: string[];
  trusted_proxies?: string[];
}

export interface MetadataConfig {
  root_path: string;
}

export interface StreamingConfig {
  max_cache_size_mb: number;
  max_download_workers: number;
}

export interface ImportConfig {
  max_processor_workers: number;
  queue_processing_interval_seconds: number;
  segment_sample_percentage: number;
  max_retries: number;
  import_strategy: 'none' | 'symlink' | 'strm';
  import_dir: string;
  strm_base_url: string;
  watch_dir: string;
  watch_interval_seconds: number;
  allowed_file_extensions: string[];
  filter_sample_files: boolean;
  failed_item_retention_hours: number;
  scan_roots: string[];
  show_archive_volumes: boolean;
  archive_passwords_set: boolean;
  archive_passwords_count: number;
}

export interface HealthConfig {
  enabled: boolean;
  auto_repair_enabled: boolean;
  max_concurrent_jobs: number;
  max_retries: number;
  max_repair_retries: number;
  check_interval_seconds: number;
  check_all_segments: boolean;
  segment_sample_percentage: number;
  repair_breaker_percent: number;
  repair_breaker_window_minutes: number;
}

export interface LogConfig {
  file: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  max_size: number;
  max_age: number;
  max_backups: number;
  compress: boolean;
}

/** One SABnzbd category (docs/console-contract.md §3): priority -1 Low, 0 Normal, 1 High; dir is optional. */
export interface SabnzbdCategory {
  name: string;
  order: number;
  priority: number;
  dir: string;
}

/** The download-client API section; the fallback key is write-only (`fallback_api_key_set`). */
export interface SabnzbdConfig {
  enabled: boolean;
  complete_dir: string;
  fallback_host: string;
  fallback_api_key_set?: boolean;
  categories: SabnzbdCategory[];
}

/** The whole configuration (GET /config). Sections owned by later work are kept opaque here. */
export interface SpoolConfig {
  mount_path: string;
  webdav: WebdavConfig;
  auth: AuthSectionConfig;
  metadata: MetadataConfig;
  streaming: StreamingConfig;
  import: ImportConfig;
  health: HealthConfig;
  rclone?: Record<string, unknown>;
  sabnzbd?: SabnzbdConfig;
  arrs?: ArrsConfigView;
  providers?: unknown[];
  log: LogConfig;
}

/** Answer of every config write and of reload: the new (redacted) config and the restart-only settings changed. */
export interface ConfigWriteResult {
  config: SpoolConfig;
  restart_required: string[];
}

export type ConfigSectionName =
  'webdav' | 'auth' | 'streaming' | 'import' | 'metadata' | 'rclone' | 'system' | 'sabnzbd' | 'arrs' | 'health' | 'log';
