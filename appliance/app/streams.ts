import type { Clock } from '../clock/clock.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import { StreamRegistry } from '../streams/stream-registry.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import { progressOf } from './stream-events.js';

/**
 * The Streams view's registry (appliance/streams/), fed by the stream events every WebDAV and FUSE read handle
 * announces (app/stream-events.ts). Returns it and the unsubscribe.
 */
export function wireStreamRegistry(
  events: EventSource<SpoolEvents>,
  handles: ReadHandles,
  clock: Pick<Clock, 'now'>,
): { registry: StreamRegistry; stop: () => void } {
  const registry = new StreamRegistry({ clock, current: () => handles.snapshots().map(progressOf) });
  // every read handle's fetches carry its class to the pool, which serves players first (docs/nntp.md, "Lanes")
  handles.classifyWith((id) => registry.readerClassOf(String(id)));
  const stops = [
    events.on('stream.opened', (e) => registry.opened(e)),
    events.on('stream.progress', (e) => registry.progress(e)),
    events.on('stream.closed', (e) => registry.closed(e)),
  ];
  return { registry, stop: () => stops.forEach((stop) => stop()) };
}
