import type { EventSink, SpoolEvents } from '../events/index.js';
import type { StreamClient, StreamProgressEvent } from '../events/live.wire.js';
import type { ReadHandles, StreamSnapshot } from '../vfs/read-handle.js';

/**
 * Every read handle of WebDAV and FUSE announces its life on the bus: stream.opened, stream.progress (at most once
 * a second per handle, appliance/vfs/read-handle.ts) and stream.closed. Nothing is built while nobody listens to
 * the stream events. Returns the unsubscribe.
 */
export function wireStreamEvents(handles: ReadHandles, events: EventSink<SpoolEvents>): () => void {
  return handles.observe({
    opened(s) {
      if (!events.hasListeners('stream.opened')) return;
      events.emit('stream.opened', {
        stream_id: String(s.id),
        path: s.path,
        via: s.front,
        offset: s.offset,
        size: s.size,
        client: clientOf(s),
        ...(s.durationSeconds === undefined ? {} : { duration_seconds: s.durationSeconds }),
      });
    },
    progress(s) {
      if (!events.hasListeners('stream.progress')) return;
      events.emit('stream.progress', progressOf(s));
    },
    closed(s) {
      if (!events.hasListeners('stream.closed')) return;
      events.emit('stream.closed', {
        stream_id: String(s.id),
        bytes_sent: s.bytesServed,
        position: s.offset,
        reason: s.reason ?? 'done',
        ...timings(s),
      });
    },
  });
}

/** A handle's numbers as a stream.progress payload (also the Streams view's fresh look, app/streams.ts). */
export function progressOf(s: StreamSnapshot): StreamProgressEvent {
  return { stream_id: String(s.id), bytes_sent: s.bytesServed, position: s.offset, ...timings(s) };
}

function clientOf(s: StreamSnapshot): StreamClient {
  const c = s.client;
  return {
    ...(c.address !== undefined ? { address: c.address } : {}),
    ...(c.userAgent !== undefined ? { user_agent: c.userAgent } : {}),
    ...(c.pid !== undefined ? { pid: c.pid } : {}),
  };
}

function timings(s: StreamSnapshot) {
  const seek = s.seekReadMs === undefined ? {} : { seek_read_ms: s.seekReadMs };
  const waiting = s.waitingMs ? { waiting_ms: s.waitingMs } : {};
  const buffered = s.bufferedBytes === undefined ? {} : { buffered_bytes: s.bufferedBytes };
  return { ttfb_ms: s.ttfbMs, stalls: s.stalls, stalled_ms: s.stalledMs, ...seek, ...waiting, ...buffered };
}
