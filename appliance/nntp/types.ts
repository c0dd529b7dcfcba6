/** Shapes shared by the NNTP client, the pool and their callers. */

/** A provider as in docs/console-contract.md §3; list order is priority (first = used first). */
export interface ProviderConfig {
  id: string;
  host: string;
  port: number;
  username: string;
  password: string;
  max_connections: number;
  tls: boolean;
  insecure_tls: boolean;
  /** PEM of the CA(s) that issued a private chain, trusted besides the system's for this provider; empty: none. */
  ca?: string;
  enabled: boolean;
  is_backup_provider: boolean;
  /** Days of articles it keeps; null/absent: unlimited (docs/nntp.md, "Routing"). */
  retention_days?: number | null;
  /** Articles older than retention_days: asked of it after every other provider ('last') or never. */
  retention_policy?: 'last' | 'never';
  /** Its backbone group; '' or absent: from the host (backbones.ts). */
  backbone?: string;
  /** Bought by the gigabyte: asked only after every primary missed. */
  block_account?: boolean;
  /** While it is down, requests wait for it (or fail with the outage) rather than spill to a block account. */
  required?: boolean;
  /**
   * The fit report's keys (docs/providers.md "Fit report", "Cost view"), never read by the pool: a candidate is not
   * handed to it at all (config/providers.ts `readProviders`).
   */
  candidate?: boolean;
  fit_stats_per_hour?: number;
  price_per_month?: number | null;
  price_per_block?: number | null;
  block_size_gb?: number | null;
  /** Quota and expiry (docs/nntp.md "Quotas and expiry"), read by the quota meter, which pauses the provider. */
  quota_period?: 'none' | 'daily' | 'weekly' | 'monthly' | 'lifetime';
  quota_bytes?: number | null;
  quota_reset_day?: number;
  quota_used_bytes?: number;
  expires_on?: string | null;
}

/**
 * Streaming reads go before health checks, which go before imports; a PAR2 repair (reading a whole recovery set,
 * docs/health.md "PAR2 repair") goes last, never ahead of playback.
 */
export type RequestPriority = 'stream' | 'health' | 'import' | 'repair';
export const PRIORITIES: readonly RequestPriority[] = ['stream', 'health', 'import', 'repair'];
/** Who reads on the stream lane: a player (playback) or a scanner (a library scan's probes). */
export type ReaderKind = 'player' | 'scanner';

/** Facts from the =ybegin / =ypart / =yend lines of one article. */
export interface YencHeader {
  name: string;
  /** Size of the whole file (=ybegin size). */
  totalSize: number;
  /** 1-based part number, 1 for single-part posts. */
  part: number;
  totalParts: number | undefined;
  /** 1-based inclusive offsets in the whole file (=ypart begin/end); 1..size for single-part posts. */
  begin: number;
  end: number;
  /** Decoded size of this part. */
  partSize: number;
  /** CRC32 of this part as declared by =yend (pcrc32, or crc32 for single-part posts), lower-case hex. */
  crc: string | undefined;
}

export interface DecodedArticle extends YencHeader {
  messageId: string;
  /** Exactly the decoded bytes of this part (partSize long). */
  data: Buffer;
  /** Bytes read from the network for this article. */
  wireBytes: number;
  providerId: string;
}
