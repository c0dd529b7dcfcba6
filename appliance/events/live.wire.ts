/**
 * What happens in Spool, as plain data, and what the console may receive of it over the live channel
 * (`/api/live`, a WebSocket; docs/architecture.md "Events and the live channel"). A wire file: types and constants
 * only, no imports from Node or packages (the console bundles it; `npm run lint` checks).
 */
import type { HealthStatus, QueueStatus } from './statuses.wire.js';
import type { PoolMetrics } from '../nntp/pool.wire.js';
import type { ProviderStateEvent } from '../nntp/provider-state.wire.js';

/** A queue item as its events carry it: enough to update a row without asking the API again. */
export interface QueueItemEvent {
  id: number;
  name: string;
  category: string | null;
  status: QueueStatus;
  paused: boolean;
}

/** An item that changed; `previous_status` differs from `status` when the change was a status change. */
export interface QueueItemChangedEvent extends QueueItemEvent {
  previous_status: QueueStatus;
}

/**
 * The stages of an import (docs/architecture.md "Import path"): parse the NZB, fetch each file's first article,
 * probe availability, plan each file's layout, write the job into the tree.
 */
export const IMPORT_STAGES = ['parse', 'first_articles', 'probe', 'layouts', 'write', 'repair'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

/** How far an import has got: the stage it entered, and within it `done` of `total` (files) when counted. */
export interface ImportProgressEvent {
  id: number;
  stage: ImportStage;
  done: number;
  total: number;
}

/** Files that entered the tree; `queue_item_id` when an import wrote them. */
export interface FilesAddedEvent {
  paths: string[];
  queue_item_id: number | null;
}

/** Files and directories that left the tree. */
export interface FilesRemovedEvent {
  paths: string[];
}

/** A file or directory moved (its records move along; a 'file.removed' of `from` follows). */
export interface FileMovedEvent {
  from: string;
  to: string;
}

/** A directory whose listing changed. */
export interface DirectoryChangedEvent {
  dir: string;
}

export type HealthRecordChange = 'created' | 'updated' | 'removed';

/** A file's health record was written: created at import, updated by a check or a repair, removed with the file. */
export interface HealthRecordChangedEvent {
  id: number;
  path: string;
  change: HealthRecordChange;
  status: HealthStatus;
}

/**
 * A provider went down or came back, its learned connection cap changed, or it was added, enabled, disabled or
 * removed: the pool emits it, once per change (nntp/provider-state.wire.ts, docs/nntp.md "Provider states").
 */
export type { ProviderStateEvent } from '../nntp/provider-state.wire.js';

/** The pool's metrics, sent on a tick only while someone listens. */
export type PoolMetricsTickEvent = PoolMetrics;

/** The mount at `mount_path` came up, went down or failed. */
export interface MountStateEvent {
  mounted: boolean;
  mount_point: string;
  error: string;
}

/** One read of a file from start to close (WebDAV GET or a FUSE open): the live stream view. */
export interface StreamOpenedEvent {
  stream_id: string;
  path: string;
  via: 'webdav' | 'fuse';
  /** The first byte asked for (a FUSE open asks for none yet: 0). */
  offset: number;
  size: number;
  client: StreamClient;
  /** The file's playing time read from its container at import; absent when unknown. */
  duration_seconds?: number;
}

/** Who reads: the HTTP client's address and User-Agent (WebDAV), the pid of the reading process (FUSE). */
export interface StreamClient {
  address?: string;
  user_agent?: string;
  pid?: number;
}

/** How a stream is doing: time to first byte since open (null before it), waits over 1 s after it. */
export interface StreamTimings {
  ttfb_ms: number | null;
  stalls: number;
  stalled_ms: number;
  /** A read that began past byte 0 (a seek): ms from open until 8 MiB were served; absent before then or otherwise. */
  seek_read_ms?: number;
  /** How long the read in progress has waited for the network so far (absent or 0: none waits). */
  waiting_ms?: number;
  /** Decoded bytes cached ahead of the position (present on the Streams view's own look, not on the bus). */
  buffered_bytes?: number;
  /** The Streams view's own look too: its commands on the wire, the hosts of the providers that served it. */
  connections?: number;
  providers?: string[];
}

export interface StreamProgressEvent extends StreamTimings {
  stream_id: string;
  bytes_sent: number;
  /** The byte the reader is at. */
  position: number;
}

export interface StreamClosedEvent extends StreamTimings {
  stream_id: string;
  bytes_sent: number;
  /** Where the last read ended. */
  position: number;
  /** 'ended': an admin ended it (DELETE /api/streams/{id}). */
  reason: 'done' | 'aborted' | 'error' | 'ended';
}

/** Config fields a save changed (dotted paths like `providers.0.host`); never their values. */
export interface ConfigChangedEvent {
  paths: string[];
}

/**
 * Topics the live channel forwards and the payload of each (also events of the app's bus: `SpoolEvents` extends
 * this map with the events that stay on the server).
 */
export interface LiveEventMap {
  /** Enqueued (upload, scan, watch folder, SABnzbd addfile/addurl). */
  'queue.item.added': QueueItemEvent;
  /** Status, pause or retry state changed (pending → processing → completed | retrying | failed, ...). */
  'queue.item.changed': QueueItemChangedEvent;
  'queue.item.removed': QueueItemEvent;
  'import.progress': ImportProgressEvent;
  'file.added': FilesAddedEvent;
  'file.removed': FilesRemovedEvent;
  'file.moved': FileMovedEvent;
  'health.record.changed': HealthRecordChangedEvent;
  'provider.state.changed': ProviderStateEvent;
  /** Every 2 s, built only while a client subscribes to it. */
  'pool.metrics.tick': PoolMetricsTickEvent;
  'mount.state.changed': MountStateEvent;
  'stream.opened': StreamOpenedEvent;
  'stream.progress': StreamProgressEvent;
  'stream.closed': StreamClosedEvent;
}

export type LiveTopic = keyof LiveEventMap;

/** The console's features a live event can make stale (their queries are fetched again). */
export type LiveFeature = 'queue' | 'files' | 'health' | 'providers' | 'mount' | 'streams';

/** What the server and the console do with one live topic. */
export interface LiveTopicTraits {
  /** Sent to a new connection until it subscribes (the queue items and the tree). */
  byDefault: boolean;
  /** The console asks for it while it runs, only while a screen shows it (the frequent ones), or never. */
  console: 'always' | 'on_demand' | 'never';
  /** `library`: relayed between the nodes of one database; `node`: one node's own state (its pool, its mount). */
  scope: 'library' | 'node';
  /** The console feature whose data it makes stale, or null: it carries its data itself, or nothing shows it. */
  stale: LiveFeature | null;
}

/**
 * Every live topic, once, with its traits: every list of topics (all of them, the default ones, the node-local
 * ones, those the console asks for) is derived from this table, on the server and in the console.
 */
export const LIVE_TOPIC_TRAITS = {
  'queue.item.added': { byDefault: true, console: 'always', scope: 'library', stale: 'queue' },
  'queue.item.changed': { byDefault: true, console: 'always', scope: 'library', stale: 'queue' },
  'queue.item.removed': { byDefault: true, console: 'always', scope: 'library', stale: 'queue' },
  'import.progress': { byDefault: false, console: 'never', scope: 'library', stale: null },
  'file.added': { byDefault: true, console: 'always', scope: 'library', stale: 'files' },
  'file.removed': { byDefault: true, console: 'always', scope: 'library', stale: 'files' },
  'file.moved': { byDefault: true, console: 'always', scope: 'library', stale: 'files' },
  'health.record.changed': { byDefault: false, console: 'always', scope: 'library', stale: 'health' },
  'provider.state.changed': { byDefault: false, console: 'always', scope: 'node', stale: 'providers' },
  'pool.metrics.tick': { byDefault: false, console: 'on_demand', scope: 'node', stale: null },
  'mount.state.changed': { byDefault: false, console: 'always', scope: 'node', stale: 'mount' },
  'stream.opened': { byDefault: false, console: 'always', scope: 'library', stale: 'streams' },
  'stream.progress': { byDefault: false, console: 'on_demand', scope: 'library', stale: 'streams' },
  'stream.closed': { byDefault: false, console: 'always', scope: 'library', stale: 'streams' },
} as const satisfies Record<LiveTopic, LiveTopicTraits>;

/** The topics whose traits pass `keep`, in the table's order. */
export function liveTopicsWhere(keep: (traits: LiveTopicTraits) => boolean): LiveTopic[] {
  const all = Object.keys(LIVE_TOPIC_TRAITS) as LiveTopic[];
  return all.filter((topic) => keep(LIVE_TOPIC_TRAITS[topic]));
}

/** Every topic the live channel forwards. */
export const LIVE_TOPICS: readonly LiveTopic[] = liveTopicsWhere(() => true);

/** What a new connection receives until it subscribes: the queue items and the tree. */
export const LIVE_DEFAULT_TOPICS: readonly LiveTopic[] = liveTopicsWhere((t) => t.byDefault);

/** The path of the live channel (a WebSocket upgrade; authenticated like the `/api` routes). */
export const LIVE_PATH = '/api/live';

/** The first message on a new connection. */
export interface LiveHello {
  type: 'hello';
  version: string;
  topics: LiveTopic[];
}

/** One event, as `{type: 'event', topic, data}`. */
export type LiveEventMessage = {
  [K in LiveTopic]: { type: 'event'; topic: K; data: LiveEventMap[K] };
}[LiveTopic];

/** The server could not read a client's message (it changed nothing). */
export interface LiveErrorMessage {
  type: 'error';
  message: string;
}

export type LiveMessage = LiveHello | LiveEventMessage | LiveErrorMessage;

/**
 * What a client may send: `subscribe` replaces the topics it receives (an empty list receives nothing). A text
 * message of JSON, at most LIVE_MAX_CLIENT_MESSAGE bytes.
 */
export interface LiveSubscribe {
  type: 'subscribe';
  topics: LiveTopic[];
}

export type LiveClientMessage = LiveSubscribe;

export const LIVE_MAX_CLIENT_MESSAGE = 4 * 1024;
