import type { PgDb } from '../store/pg/index.js';
import type { ClusterStreamsStore, NodeStreams } from './cluster-streams.js';
import type { StreamInfo } from './streams.wire.js';

/**
 * Each node's open streams in PostgreSQL (`cluster_streams`, a row per node: its snapshot as jsonb and the time it
 * was written). Times are the database's, so the nodes' clocks need not agree on what is stale.
 */
export class PgClusterStreamsStore implements ClusterStreamsStore {
  constructor(private readonly db: Pick<PgDb, 'query'>) {}

  async put(node: string, streams: StreamInfo[]): Promise<void> {
    await this.db.query(
      `INSERT INTO cluster_streams (node, streams, at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (node) DO UPDATE SET streams = EXCLUDED.streams, at = EXCLUDED.at`,
      [node, JSON.stringify(streams)],
    );
  }

  async remove(node: string): Promise<void> {
    await this.db.query('DELETE FROM cluster_streams WHERE node = $1', [node]);
  }

  async others(node: string, maxAgeMs: number): Promise<NodeStreams[]> {
    const { rows } = await this.db.query<{ node: string; streams: StreamInfo[] }>(
      `SELECT node, streams FROM cluster_streams
       WHERE node <> $1 AND at > now() - make_interval(secs => $2) ORDER BY node`,
      [node, maxAgeMs / 1000],
    );
    return rows.map((r) => ({ node: r.node, streams: r.streams }));
  }
}
