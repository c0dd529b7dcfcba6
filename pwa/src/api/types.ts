/** Shapes of spec §3 as the API returns them. */

export interface User {
  id: string;
  name: string;
  email?: string | null;
  provider?: string | null;
  is_admin: boolean;
  last_login?: string | null;
  api_key?: string | null;
}

export interface AuthConfig {
  login_required: boolean;
}

export interface RegistrationStatus {
  registration_enabled: boolean;
  user_count: number;
}

export interface QueueStats {
  total_queued: number;
  total_processing: number;
  total_completed: number;
  total_failed: number;
}

export interface HealthStats {
  total: number;
  pending: number;
  healthy: number;
  partial: number;
  corrupted: number;
}

export interface PoolMetrics {
  active_connections: number;
  total_bytes_downloaded: number;
  command_success_rate_percent: number;
  error_rate_percent: number;
  acquire_wait_time_ms: number;
}

export interface WebdavConfig {
  port: number;
  user: string;
  password_set?: boolean;
}

export interface AuthSectionConfig {
  login_required: boolean;
  registration_enabled: boolean;
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
}

export interface HealthConfig {
  enabled: boolean;
  auto_repair_enabled: boolean;
  max_concurrent_jobs: number;
  max_retries: number;
  check_interval_seconds: number;
  check_all_segments: boolean;
}

/** One SABnzbd category (spec §3): priority -1 Low, 0 Normal, 1 High; dir is optional. */
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
  arrs?: Record<string, unknown>;
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
