import type { PlaybackLoad } from '../health/health.runner.js';
import type { StreamRegistry } from '../streams/stream-registry.js';

/**
 * Playback's load as the health worker asks it (docs/health.md, "Yielding to playback"): 'idle' while no open
 * stream is a player (scanners and probes do not count), 'busy' while a player reads and its reads wait for a pool
 * connection (the pool's `play` lane, docs/nntp.md "Lanes"), 'streaming' otherwise.
 */
export function playbackLoad(
  streams: Pick<StreamRegistry, 'list'>,
  pool: { playerWaiting(): number },
): () => PlaybackLoad {
  return () => {
    if (!streams.list().some((s) => s.reader_class === 'player')) return 'idle';
    return pool.playerWaiting() > 0 ? 'busy' : 'streaming';
  };
}
