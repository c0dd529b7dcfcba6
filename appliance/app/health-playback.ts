import type { PlaybackLoad } from '../health/health.runner.js';
import type { RequestPriority } from '../nntp/index.js';
import type { StreamRegistry } from '../streams/stream-registry.js';

/**
 * Playback's load as the health worker asks it (docs/health.md, "Yielding to playback"): 'idle' while no open
 * stream is a player (scanners and probes do not count), 'busy' while a player reads and stream requests wait for
 * a pool connection, 'streaming' otherwise.
 */
export function playbackLoad(
  streams: Pick<StreamRegistry, 'list'>,
  pool: { waitingIn(lane: RequestPriority): number },
): () => PlaybackLoad {
  return () => {
    if (!streams.list().some((s) => s.reader_class === 'player')) return 'idle';
    return pool.waitingIn('stream') > 0 ? 'busy' : 'streaming';
  };
}
