import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { StreamInfo } from './streams.wire.js';

/** One node's open streams, as it last shared them. */
export interface NodeStreams {
  node: string;
  streams: StreamInfo[];
}

/** Where the nodes of one PostgreSQL share their open streams (cluster-streams-pg.store.ts). */
export interface ClusterStreamsStore {
  /** Replaces the node's snapshot, stamped with the store's own time. */
  put(node: string, streams: StreamInfo[]): Promise<void>;
  /** Drops the node's snapshot (it has nothing open, or it stops). */
  remove(node: string): Promise<void>;
  /** Every other node's snapshot written within `maxAgeMs` (older ones are a dead node's). */
  others(node: string, maxAgeMs: number): Promise<NodeStreams[]>;
}

/** How often a node shares its streams (only when they changed), re-stamps an unchanged one, and when one is stale. */
export const CLUSTER_STREAMS_TIMING = { intervalMs: 2_000, heartbeatMs: 5_000, staleMs: 15_000 };

/**
 * The Streams view of every node: this node's streams as they are (ids unchanged), then each other node's with its
 * id prefixed by the node (`<node>:<id>`, so ids stay unique), every stream carrying the node that serves it.
 */
export function mergeStreams(nodeId: string, local: StreamInfo[], others: NodeStreams[]): StreamInfo[] {
  const theirs = others
    .filter((o) => o.node !== nodeId)
    .flatMap((o) => o.streams.map((s) => ({ ...s, id: `${o.node}:${s.id}`, node: o.node })));
  return [...local.map((s) => ({ ...s, node: nodeId })), ...theirs];
}

/** The node serving a stream id of the merged view: undefined for this node's own (a bare number). */
export function nodeOfStreamId(id: string): string | undefined {
  const at = id.lastIndexOf(':');
  return at > 0 ? id.slice(0, at) : undefined;
}

export interface ClusterStreamsOptions {
  nodeId: string;
  store: ClusterStreamsStore;
  /** This node's open streams (StreamRegistry.list). */
  local: () => StreamInfo[];
  clock: Clock;
  logger: Logger;
  timing?: typeof CLUSTER_STREAMS_TIMING;
}

/**
 * Shares this node's open streams with the other nodes (docs/streaming.md, "Several nodes"): every `intervalMs` it
 * writes its snapshot when it changed (or re-stamps it after `heartbeatMs`, so a live node's row never looks
 * stale), drops it when nothing is open and at stop; `list()` merges the others' fresh snapshots with its own. A
 * failed write or read is logged and the view falls back to this node's streams.
 */
export class ClusterStreams {
  private readonly timing: typeof CLUSTER_STREAMS_TIMING;
  private shared: string | null = null;
  private sharedAt = 0;
  private cancel: (() => void) | null = null;
  private inflight: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ClusterStreamsOptions) {
    this.timing = opts.timing ?? CLUSTER_STREAMS_TIMING;
  }

  get nodeId(): string {
    return this.opts.nodeId;
  }

  start(): void {
    const { clock } = this.opts;
    const tick = () => {
      this.inflight = this.share();
      this.cancel = clock.schedule(tick, this.timing.intervalMs);
    };
    this.cancel = clock.schedule(tick, 0);
  }

  /** Writes this node's snapshot if it changed since the last write (or is due a re-stamp). */
  async share(): Promise<void> {
    const { store, nodeId, clock } = this.opts;
    const streams = this.opts.local();
    const snapshot = JSON.stringify(streams);
    const now = clock.now();
    const unchanged = snapshot === this.shared;
    try {
      if (streams.length === 0) {
        if (!unchanged) await store.remove(nodeId);
      } else if (!unchanged || now - this.sharedAt >= this.timing.heartbeatMs) {
        await store.put(nodeId, streams);
      } else return;
      this.shared = snapshot;
      this.sharedAt = now;
    } catch (err) {
      this.shared = null; // written again on the next tick
      this.opts.logger.warn('could not share the open streams', { error: (err as Error).message });
    }
  }

  /** Every node's open streams (this node's first). */
  async list(): Promise<StreamInfo[]> {
    const { store, nodeId } = this.opts;
    const local = this.opts.local();
    const others = await store.others(nodeId, this.timing.staleMs).catch((err: Error) => {
      this.opts.logger.warn("could not read the other nodes' streams", { error: err.message });
      return [];
    });
    return mergeStreams(nodeId, local, others);
  }

  /** Stops sharing and drops this node's snapshot. */
  async stop(): Promise<void> {
    this.cancel?.();
    this.cancel = null;
    await this.inflight;
    await this.opts.store
      .remove(this.opts.nodeId)
      .catch((err: Error) => this.opts.logger.warn('could not drop the shared streams', { error: err.message }));
  }
}
