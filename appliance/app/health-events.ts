import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthDomain } from '../health/index.js';

/**
 * What health hears from the rest of Spool: the tree's files added, removed and moved (their records follow) and
 * config saves (the worker looks at its settings again). Returns the unsubscribe.
 */
export function wireHealthEvents(events: EventSource<SpoolEvents>, health: HealthDomain): () => void {
  const stops = [
    events.on('file.added', (e) => health.tree.added(e.paths)),
    events.on('file.removed', (e) => health.tree.removed(e.paths)),
    events.on('file.moved', (e) => health.tree.moved(e.from, e.to)),
    events.on('config.changed', () => health.runner.wake()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
