/**
 * Wire shapes of GET /api/streams and GET /api/streams/history (docs/streaming.md, "The Streams view"). A wire
 * file: types and constants only, no imports from Node or packages (the console bundles it).
 */

/**
 * Who a reader is, told from its access pattern (appliance/streams/reader-class.ts): a player reads on from the
 * start or a seek, sustained; a scanner (ffprobe, mediainfo, a library scan) reads the head and/or tail and leaves.
 */
export const READER_CLASSES = ['player', 'scanner'] as const;
export type ReaderClass = (typeof READER_CLASSES)[number];

/**
 * Who the pool fetched for, from the lane each request waited in (appliance/nntp/request-queue.ts): a player's reads
 * and its read-ahead, a scanner's reads, health checks (repairs read on the health lane too) and imports.
 */
export const FETCH_CLASSES = ['player', 'read_ahead', 'scanner', 'health', 'import'] as const;
export type FetchClass = (typeof FETCH_CLASSES)[number];

/** Decoded bytes the pool fetched per class on one UTC day (`YYYY-MM-DD`); kept across restarts. */
export interface FetchedBytesDay {
  day: string;
  bytes: Record<FetchClass, number>;
}

/** The front a file is read through; rclone's mount reads over WebDAV and is told apart by its user agent. */
export type StreamFront = 'webdav' | 'fuse' | 'rclone';

/** How a stream ended: read to its end (or the reader was done), the client left, a read failed, an admin ended it. */
export type StreamEndReason = 'done' | 'aborted' | 'error' | 'ended';

export interface StreamClientInfo {
  address?: string;
  user_agent?: string;
  /** The reading process (FUSE, when the kernel names it). */
  pid?: number;
}

export interface StreamInfo {
  /** Unique across nodes: another node's stream is `<node>:<its id>` (docs/streaming.md, "Several nodes"). */
  id: string;
  /** Several nodes on PostgreSQL only: the node serving it (absent on a single node). */
  node?: string;
  path: string;
  size: number;
  front: StreamFront;
  client: StreamClientInfo;
  reader_class: ReaderClass;
  /** False while the class is provisional (decided at open, settled after the first reads or at close). */
  class_settled: boolean;
  opened_at: string;
  bytes_served: number;
  /** Where the last read ended. */
  offset: number;
  /** Bytes per second delivered over the last few seconds. */
  rate_bps: number;
  ttfb_ms: number | null;
  stalls: number;
  stalled_ms: number;
  /** The file's playing time read from its container at import (Matroska, MP4); null when unknown. */
  duration_seconds: number | null;
  /** The rate the media plays at, size / duration in bytes per second (like rate_bps); null when unknown. */
  media_bitrate_bps: number | null;
  /**
   * True while a player is starved: over the last rate window it got less than the media bitrate while it waited
   * for the network, short of the end of the file (appliance/streams/starved.ts).
   */
  starved: boolean;
  /** Decoded bytes cached ahead of the offset (read-ahead the reader has not asked for yet); null when closed. */
  buffered_bytes: number | null;
  /** The stream's commands on the wire now (the provider connections it holds); null when closed. */
  connections: number | null;
  /** Hosts of the providers that served its articles, most bytes first. */
  providers: string[];
}

export interface EndedStreamInfo extends StreamInfo {
  closed_at: string;
  reason: StreamEndReason;
}

/** Bytes served per reader class on one UTC day (`YYYY-MM-DD`). */
export interface ClassBytesDay {
  day: string;
  bytes: Record<ReaderClass, number>;
}

export interface StreamsResponse {
  streams: StreamInfo[];
  /** Today (UTC) and the days before it that are kept, newest first. */
  bytes_by_class: ClassBytesDay[];
  /** What the pool fetched per class: today and the days before it that are kept, newest first. */
  fetched_by_class: FetchedBytesDay[];
}

export interface StreamsHistoryResponse {
  /** Newest first; bounded (docs/streaming.md). */
  streams: EndedStreamInfo[];
}
