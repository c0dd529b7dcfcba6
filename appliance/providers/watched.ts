import type { EndedStreamInfo } from '../streams/streams.wire.js';

/**
 * The seconds one ended stream counts as watched (the cost view's hours watched): only a player's (the Streams
 * view's reader class: scanners and copies watch nothing); the media time its bytes cover (bytes served over the
 * media bitrate) when the bitrate is known, never more than it was open; else the time it was open.
 */
export function watchedSeconds(
  s: Pick<EndedStreamInfo, 'reader_class' | 'opened_at' | 'closed_at' | 'bytes_served' | 'media_bitrate_bps'>,
): number {
  if (s.reader_class !== 'player') return 0;
  const open = Math.max(0, (Date.parse(s.closed_at) - Date.parse(s.opened_at)) / 1000);
  if (!Number.isFinite(open)) return 0;
  const bitrate = s.media_bitrate_bps;
  return bitrate && bitrate > 0 ? Math.min(open, s.bytes_served / bitrate) : open;
}
