import type { ConfigChangedEvent, DirectoryChangedEvent, LiveEventMap } from './live.wire.js';

/** A read's article known missing or damaged on every provider: evidence (docs/health.md). */
export interface ArticleFailedEvent {
  path: string;
  messageId: string;
  segmentIndex: number;
  reason: string;
  evidence: 'missing' | 'damaged';
  at: number;
  zeroFilled: boolean;
}

/** A repair of a file: through the arrs (appliance/repair/repair.loop.ts; docs/health.md) or PAR2. */
export interface RepairEvent {
  record_id: number;
  path: string;
  /** PAR2 recovery blocks in place, or the arr replacing the release. Absent: arr. */
  method?: RepairMethod;
  /** The arr instance that took the repair (repair.done through an arr). */
  instance?: string;
  /** Asked for by a person (POST /api/health/{id}/repair), not by the automatic loop. */
  manual: boolean;
  /** Why it failed (repair.failed); null otherwise. */
  reason: string | null;
  /** A failed repair that the loop will try again after a back-off. */
  will_retry: boolean;
}

/**
 * A provider's quota crossed a threshold (80, 95, 100: paused) or its pause lifted (`threshold` null) (docs/nntp.md
 * "Quotas and expiry"). `period`: daily, weekly, monthly or lifetime; `resets_at` ms since the epoch, null: never.
 */
export interface ProviderQuotaEvent {
  id: string;
  host: string;
  threshold: 80 | 95 | 100 | null;
  period: string;
  used_bytes: number;
  quota_bytes: number;
  resets_at: number | null;
}

/** A provider's account ends in `days_left` days (7 or fewer: the notice ahead; 0 or less: the day has come). */
export interface ProviderExpiryEvent {
  id: string;
  host: string;
  expires_on: string;
  days_left: number;
}

/** A later step of a repair (docs/health.md "Continuity"): the history keeps one line per step. */
export interface RepairStepEvent {
  record_id: number;
  path: string;
  step: 'replacement_imported' | 'old_retired' | 'media_servers_told';
  /** The arr instance, or the media server, that took the step. */
  instance: string | null;
  ok: boolean;
  detail: string | null;
}

/** docs/health.md "PAR2 repair": PAR2 first when the release carries recovery data covering the damage. */
export type RepairMethod = 'par2' | 'arr';

/**
 * A change in the library that media servers should see (docs/mediaservers.md "What is told"): at a path as Spool or
 * an arr knows it (the mount's path of a tree file, an arr's library path, a `.strm` file's path).
 */
export interface LibraryChangedEvent {
  path: string;
  /** The path is a folder, not a file in one. */
  is_folder: boolean;
  kind: 'Created' | 'Modified' | 'Deleted';
  cause: 'import' | 'repair' | 'delete' | 'strm';
  /** The health record of the repair the change belongs to. */
  record_id?: number;
}

/** One batch of media server refreshes tried: done, to be retried, or given up (appliance/mediaservers). */
export interface MediaServerRefreshedEvent {
  server: string;
  folders: string[];
  state: 'done' | 'retrying' | 'failed';
  attempts: number;
  error: string | null;
  /** The repairs whose changes the batch carried, each with its folder as the server saw it. */
  repairs: { record_id: number; folder: string }[];
}

/** The repair brake engaged (too many files turned bad at once) or an admin released it (docs/health.md). */
export interface RepairBrakeEvent {
  engaged: boolean;
  /** Why it engaged; null when released. */
  reason: string | null;
  at: number;
  /** The admin who released it; null when it engaged. */
  released_by: string | null;
}

/**
 * A health check ended (appliance/health/health.runner.ts): its verdict, `inconclusive` when the providers could
 * not answer (never evidence), `cancelled` when it was stopped or failed before one.
 */
export interface HealthCheckDoneEvent {
  record_id: number;
  outcome: 'healthy' | 'partial' | 'corrupted' | 'inconclusive' | 'cancelled';
}

/** A write refused for want of space (appliance/errors/disk-full.ts): where it happened, and the error. */
export interface DiskFullEvent {
  where: string;
  error: string;
}

/**
 * Everything that happens in Spool, one name each, payloads plain data (ids, paths, statuses). Domains emit
 * through an `EventSink<SpoolEvents>`; subscribers are wired in appliance/app/ only. The events the console may
 * also receive (the live topics) are declared once, in live.wire.ts `LiveEventMap`; these are the rest.
 */
export interface SpoolEvents extends LiveEventMap {
  /** A directory's listing changed (rclone's vfs/refresh follows it). */
  'directory.changed': DirectoryChangedEvent;
  'health.check.done': HealthCheckDoneEvent;
  /** Spool asked an arr to replace a broken file. */
  'repair.requested': RepairEvent;
  /** The arr took the repair: the release is blocklisted and a replacement searched for. */
  'repair.done': RepairEvent;
  /** The repair could not be made (no arr manages the file, the arr refused or did not answer). */
  'repair.failed': RepairEvent;
  /** A repair was not made because the repair brake is engaged or the file had its arr repairs for now. */
  'repair.held': RepairEvent;
  'repair.brake.changed': RepairBrakeEvent;
  'repair.step': RepairStepEvent;
  /** A write failed because the disk is full (a request, or an import's commit). */
  'disk.full': DiskFullEvent;
  /** A read's article was missing or damaged on every provider. */
  'read.article.failed': ArticleFailedEvent;
  /** A read's article could not be fetched because no provider answered: logged, never evidence. */
  'read.article.unreachable': Omit<ArticleFailedEvent, 'zeroFilled' | 'evidence'>;
  /** Articles recorded missing before that a read has just got whole. */
  'read.article.recovered': { path: string; messageIds: string[] };
  'config.changed': ConfigChangedEvent;
  /** Tell the media servers: emitted by whoever changes what a library holds (imports, repairs, deletes, .strm). */
  'library.changed': LibraryChangedEvent;
  'mediaserver.refreshed': MediaServerRefreshedEvent;
  /** A provider's quota crossed 80, 95 or 100% (paused), or its pause lifted (docs/nntp.md "Quotas and expiry"). */
  'provider.quota.changed': ProviderQuotaEvent;
  /** A provider's account ends in 7 days or less, or today. */
  'provider.expiry.near': ProviderExpiryEvent;
}

export type SpoolEventName = keyof SpoolEvents;
