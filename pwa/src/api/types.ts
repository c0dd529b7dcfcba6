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
  scan_roots?: string[];
}

export interface HealthConfig {
  enabled: boolean;
  auto_repair_enabled: boolean;
  max_concurrent_jobs: number;
  max_retries: number;
  check_interval_seconds: number;
  check_all_segments: boolean;
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
  log?: Record<string, unknown>;
}

/** Answer of every config write and of reload: the new (redacted) config and the restart-only settings changed. */
export interface ConfigWriteResult {
  config: SpoolConfig;
  restart_required: string[];
}

export type ConfigSectionName =
  'webdav' | 'auth' | 'streaming' | 'import' | 'metadata' | 'rclone' | 'system' | 'sabnzbd' | 'arrs' | 'health';
