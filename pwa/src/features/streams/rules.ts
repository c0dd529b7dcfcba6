import { formatBytes } from '../../lib/format';
import type { ClassBytesDay, FetchedBytesDay, StreamInfo } from './streamsApi';

/** Who reads, in one line: the HTTP client's address and user agent, or the FUSE reading process. */
export function clientLabel(s: Pick<StreamInfo, 'client'>): string {
  const c = s.client;
  if (c.pid !== undefined) return `pid ${c.pid}`;
  return [c.address, c.user_agent].filter(Boolean).join(' · ') || 'unknown';
}

export const FRONT_LABELS: Record<StreamInfo['front'], string> = { webdav: 'WebDAV', fuse: 'FUSE', rclone: 'rclone' };

/** A delivered rate as bytes per second ('–' for nothing delivered in the window). */
export function formatRate(bps: number): string {
  return bps > 0 ? `${formatBytes(bps)}/s` : '–';
}

/** Time to first byte, or '–' before it. */
export function formatTtfb(ms: number | null): string {
  if (ms === null) return '–';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Stalls as "count (total)"; '0' when none. */
export function formatStalls(s: Pick<StreamInfo, 'stalls' | 'stalled_ms'>): string {
  return s.stalls === 0 ? '0' : `${s.stalls} (${(s.stalled_ms / 1000).toFixed(1)} s)`;
}

/** Today's bytes per class: the newest day the server sent (it always sends today first). */
export function todayOf(days: ClassBytesDay[] | undefined): ClassBytesDay | undefined {
  return days?.[0];
}

/** Delivered rate against the media's: "2.1 MB/s of 1.0 MB/s", or the rate alone when the bitrate is unknown. */
export function formatRateVsBitrate(s: Pick<StreamInfo, 'rate_bps' | 'media_bitrate_bps'>): string {
  const rate = formatRate(s.rate_bps);
  return s.media_bitrate_bps ? `${rate} of ${formatBytes(s.media_bitrate_bps)}/s` : rate;
}

/** Bytes buffered ahead of the reader, '–' when none or unknown. */
export function formatBuffered(bytes: number | null): string {
  return bytes ? formatBytes(bytes) : '–';
}

export const FETCH_CLASS_LABELS: Record<keyof FetchedBytesDay['bytes'], string> = {
  player: 'Player reads',
  read_ahead: 'Read-ahead',
  scanner: 'Scanners',
  health: 'Health checks',
  import: 'Imports',
};

/** The provider connections a stream holds and who serves it: "2 · news.example.com"; '–' when neither is known. */
export function formatServing(s: Pick<StreamInfo, 'connections' | 'providers'>): string {
  const parts = [s.connections === null ? '' : String(s.connections), s.providers.join(', ')].filter(Boolean);
  return parts.join(' · ') || '–';
}

/** Several nodes serve the streams listed (PostgreSQL): the open table then shows which one serves each. */
export function servedByNodes(streams: Pick<StreamInfo, 'node'>[] | undefined): boolean {
  return new Set((streams ?? []).map((s) => s.node)).size > 1;
}

/** Only the node the console talks to ends a stream: another node's id is `<node>:<id>` (docs/streaming.md). */
export function endsHere(s: Pick<StreamInfo, 'id'>): boolean {
  return /^\d+$/.test(s.id);
}
