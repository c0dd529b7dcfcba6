import type { QualityModel } from '../arrs/arr-v3.types.js';
import type { HealthStatus, HealthVerdict } from './health.wire.js';

/**
 * A repair that keeps the broken file in the library while the arr replaces it (docs/arrs.md "Continuity"), kept
 * with the record so a restart resumes it without asking the arr twice.
 */
export interface AwaitedReplacement {
  instance: string;
  arrType: 'radarr' | 'sonarr';
  /** Radarr movie id or Sonarr series id. */
  itemId: number;
  /** The file record kept (its revision lowered) until the arr's upgrade import replaces it. */
  fileId: number;
  episodeIds: number[];
  /** The quality the record had before; written back when the repair is given up. */
  quality: QualityModel | null;
  /** The broken download's id (its nzo_id), whose grab was marked failed. */
  downloadId: string;
  grabId: number;
  /** When the arr was asked. */
  since: number;
}

/** A missing or damaged article and the decoded bytes [start, end) of the file it carried. */
export interface MissingArticle {
  messageId: string;
  index: number;
  start: number;
  end: number;
  /** The body came back but failed its CRC or size check (STAT alone would have said it exists). */
  damaged: boolean;
}

/** One file's health as stored (LMDB `health-records`, key: id). */
export interface HealthRecord {
  id: number;
  path: string;
  sourceNzbPath: string | null;
  status: HealthStatus;
  /** The status to return to when a check is cancelled or ends without a verdict. */
  settledStatus: HealthStatus;
  /**
   * The last check's verdict, kept through later checks, retries and repairs until the next verdict (null: never
   * checked). Listings hide a corrupted one; GET /api/files/info reports it. Absent on records stored before it.
   */
  verdict?: HealthVerdict | null;
  lastError: string | null;
  errorDetails: string | null;
  /** Checks in a row that ended without a verdict (providers unreachable); reset by a verdict. */
  retryCount: number;
  repairRetryCount: number;
  lastCheckedAt: number | null;
  createdAt: number;
  /** When the file entered the tree: the age tiers read it. */
  fileCreatedAt: number;
  /** When the scheduler runs the next check; null = not scheduled (manual queue only). */
  nextCheckAt: number | null;
  /**
   * The age tier that check was scheduled in (health.schedule.ts: 0 new, 1 recent, 2 old): due files are picked
   * new tier first. Absent (records never checked, or stored before tiers) counts as new.
   */
  tier?: 0 | 1 | 2;
  /** Queued by a person or by read evidence: jumps the scheduled order; priority ones first. */
  manual: { priority: boolean; at: number } | null;
  /** When an automatic repair may be tried again (back-off); null = none pending. */
  repairNextAt: number | null;
  /** When arr repairs of this file were made (the per-file cap, repair.holds.ts); absent on older records. */
  arrRepairsAt?: number[];
  missing: MissingArticle[];
  /** Articles that reads could not get (430 / bad CRC) since the last check: evidence, not a verdict. */
  readEvidence: string[];
  checkedSegments: number;
  totalSegments: number;
  /**
   * The file reads whole because a PAR2 repair rebuilt its missing bytes (docs/health.md "PAR2 repair"); null or
   * absent otherwise. Set by the repair, kept by verdicts that find only patched articles missing.
   */
  repairedFrom?: 'par2' | null;
  /** A PAR2 repair could not reach the providers: it is tried again when the repair back-off is over. */
  par2Retry?: boolean;
  /** The arr was asked to replace the file, which stays listed and served meanwhile; null or absent otherwise. */
  awaiting?: AwaitedReplacement | null;
}
