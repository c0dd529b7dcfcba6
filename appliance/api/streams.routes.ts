import { AppError, noSuchRecord } from '../errors/app-error.js';
import type { Router } from '../http/router.js';
import { nodeOfStreamId, type ClusterStreams } from '../streams/cluster-streams.js';
import type { StreamRegistry } from '../streams/stream-registry.js';
import type { StreamsHistoryResponse, StreamsResponse } from '../streams/streams.wire.js';
import type { ReadHandles } from '../vfs/read-handle.js';

/**
 * The Streams view (docs/streaming.md, "The Streams view"): open streams, the ended ones, and ending one. With
 * several nodes (`cluster`) the open streams are every node's; another node's stream is ended on that node.
 */
export function registerStreamsRoutes(
  router: Router,
  deps: { registry: StreamRegistry; handles: ReadHandles; cluster?: ClusterStreams },
): void {
  const { registry, handles, cluster } = deps;
  router.get(
    '/api/streams',
    { access: 'user' },
    async () =>
      ({
        streams: cluster ? await cluster.list() : registry.list(),
        bytes_by_class: registry.bytesByClass(),
        fetched_by_class: registry.fetchedByClass(),
      }) satisfies StreamsResponse,
  );
  router.get(
    '/api/streams/history',
    { access: 'user' },
    () => ({ streams: registry.history() }) satisfies StreamsHistoryResponse,
  );
  // WebDAV cuts the connection; FUSE answers the handle's reads with EIO. It closes as 'ended'.
  router.delete('/api/streams/:id', { access: 'admin' }, (ctx) => {
    let id = ctx.params.id ?? '';
    const node = cluster ? nodeOfStreamId(id) : undefined;
    if (node && node !== cluster?.nodeId)
      throw new AppError('INVALID_PARAMETER', `Stream ${id} is served by node ${node}: end it on that node`, { node });
    if (node) id = id.slice(node.length + 1); // this node's own, named with its node
    if (!/^\d+$/.test(id) || !handles.end(Number(id))) throw noSuchRecord(`No open stream ${id}`);
    return { id, message: `Stream ${id} ended` };
  });
}
