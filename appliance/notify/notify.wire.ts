/**
 * Wire types of notifications (docs/notifications.md) that the console shares with the server. Pure data and
 * types: nothing here imports from Node, so `pwa/` can import this file as it is.
 */

/** What Spool tells a target about, one name each (a target's `events` lists the ones it wants). */
export const NOTIFY_KINDS = [
  'import_failed',
  'repair_requested',
  'repair_done',
  'repair_failed',
  'repair_brake_engaged',
  'repair_brake_released',
  'provider_down',
  'provider_up',
  'provider_near_cap',
  'provider_quota',
  'provider_expiring',
  'stream_stalled',
  'health_backlog',
  'disk_full',
  'media_server_failed',
] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** Labels for the console's checkboxes and for titles. */
export const NOTIFY_KIND_LABELS: Record<NotifyKind, string> = {
  import_failed: 'Import failed',
  repair_requested: 'Repair requested',
  repair_done: 'Repair done',
  repair_failed: 'Repair failed',
  repair_brake_engaged: 'Repair brake engaged',
  repair_brake_released: 'Repair brake released',
  provider_down: 'Provider down',
  provider_up: 'Provider back',
  provider_near_cap: 'Provider near its connection cap',
  provider_quota: 'Provider quota at 80%, 95%, spent or reset',
  provider_expiring: 'Provider account expiring',
  stream_stalled: 'Stream stalled',
  health_backlog: 'Health backlog growing',
  disk_full: 'Disk full',
  media_server_failed: 'Media server refresh failing',
};

export const NOTIFY_TARGET_TYPES = ['webhook', 'ntfy', 'discord', 'apprise'] as const;
export type NotifyTargetType = (typeof NOTIFY_TARGET_TYPES)[number];

export type NotifySeverity = 'info' | 'warning' | 'error';

/** One notice, as the generic webhook receives it (POST, JSON). `time` is ISO 8601. */
export interface NoticeJson {
  event: NotifyKind | 'test';
  title: string;
  message: string;
  severity: NotifySeverity;
  time: string;
  details: Record<string, string | number | boolean | null>;
}

/** A target as GET /api/config answers it: the token is write-only, `token_set` says whether one is stored. */
export interface NotifyTargetView {
  name: string;
  type: NotifyTargetType;
  url: string;
  token_set: boolean;
  enabled: boolean;
  events: NotifyKind[];
}

/**
 * Body of POST /api/notifications/test: a saved target by `name`, or an unsaved one given whole (`type` and
 * `url`; an empty `token` with the name of a saved target uses the stored token).
 */
export interface NotifyTestInput {
  name?: string;
  type?: NotifyTargetType;
  url?: string;
  token?: string;
}

/** What the test answers: whether the target took the message, and its error when not. */
export interface NotifyTestResult {
  ok: boolean;
  error: string | null;
}

/** The path of the test route. */
export const NOTIFY_TEST_PATH = '/api/notifications/test';
