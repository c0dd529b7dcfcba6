import { systemClock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { PgDb } from '../../store/pg/index.js';
import { ClusterStreams } from '../../streams/cluster-streams.js';
import { PgClusterStreamsStore } from '../../streams/cluster-streams-pg.store.js';
import type { StreamRegistry } from '../../streams/stream-registry.js';

/**
 * Several nodes on PostgreSQL: this node shares its open streams with the others and its Streams view lists every
 * node's (appliance/streams/cluster-streams.ts). Undefined on LMDB (one node: no table, no timer).
 */
export function shareStreams(
  db: PgDb | undefined,
  nodeId: string,
  registry: Pick<StreamRegistry, 'list'>,
  logger: Logger,
): ClusterStreams | undefined {
  if (!db) return undefined;
  const cluster = new ClusterStreams({
    nodeId,
    store: new PgClusterStreamsStore(db),
    local: () => registry.list(),
    // real time, like the pool's metrics tick: a test's ManualClock moving hours ahead need not run thousands
    clock: systemClock,
    logger,
  });
  cluster.start();
  return cluster;
}
