/**
 * Wire shapes of the operator's toolkit (docs/console-contract.md, "Diagnostics"): GET /api/system/diagnostics, the
 * provider speed test and the support bundle. A wire file: types and constants only (the console bundles it).
 */

/** How much a finding matters: info (a fact), warning (works, but will bite), error (broken now). */
export type DiagnosticLevel = 'info' | 'warning' | 'error';

/** The part of the setup a finding is about, the order the console's card lists them in. */
export const DIAGNOSTIC_SECTIONS = ['mount', 'storage', 'container', 'providers', 'arrs', 'versions'] as const;
export type DiagnosticSection = (typeof DIAGNOSTIC_SECTIONS)[number];

export interface DiagnosticFinding {
  /** Stable name of the check, e.g. `clock`, `tls_expiry`; several findings may share one (one per provider). */
  check: string;
  section: DiagnosticSection;
  level: DiagnosticLevel;
  /** One sentence: what was found. */
  message: string;
  /** What to do about it, in words; null for a plain fact. */
  fix: string | null;
}

export interface DiagnosticsReport {
  /** ISO time the checks ran (Spool's clock). */
  checked_at: string;
  findings: DiagnosticFinding[];
  counts: Record<DiagnosticLevel, number>;
}

/** One step of the ramp: this many connections, reading for the step's time. */
export interface SpeedTestStep {
  connections: number;
  /** Decoded article bytes per second over the step's measured window, in MB/s (10^6 bytes). */
  mb_per_s: number;
  /** Articles completed in the measured window. */
  articles: number;
}

export type SpeedTestState = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

export interface SpeedTestStatus {
  state: SpeedTestState;
  provider_id: string | null;
  /** The provider's max_connections when the test started. */
  current_max_connections: number | null;
  steps: SpeedTestStep[];
  /** The fewest connections that reached 90% of the best throughput measured; null until done. */
  suggested_max_connections: number | null;
  /** Why it stopped early or failed, in words; null otherwise. */
  reason: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/** POST /api/system/speedtest's body. */
export interface SpeedTestRequest {
  provider_id: string;
  /** Most connections to try (default: twice the provider's max_connections, at most 50). */
  max_connections?: number;
  /** Cap on the whole test, in seconds (default 60, at most 300). */
  max_seconds?: number;
}

/** The file names inside the support bundle (a .tar.gz). */
export const SUPPORT_BUNDLE_FILES = [
  'config.yaml',
  'diagnostics.json',
  'versions.json',
  'metrics.txt',
  'log.txt',
  'README.txt',
] as const;

/** POST /api/system/speedtest/apply's body and answer: the count the operator confirmed. */
export interface SpeedTestApply {
  provider_id: string;
  max_connections: number;
}
