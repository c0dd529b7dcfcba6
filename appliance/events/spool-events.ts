import type {
  ConfigChangedEvent,
  DirectoryChangedEvent,
  FileMovedEvent,
  FilesAddedEvent,
  FilesRemovedEvent,
  HealthRecordChangedEvent,
  ImportProgressEvent,
  MountStateEvent,
  PoolMetricsTickEvent,
  ProviderStateEvent,
  QueueItemChangedEvent,
  QueueItemEvent,
  StreamClosedEvent,
  StreamOpenedEvent,
  StreamProgressEvent,
} from './live.wire.js';

/** A read's article known missing or damaged on every provider: evidence (docs/health.md). */
export interface ArticleFailedEvent {
  path: string;
  messageId: string;
  segmentIndex: number;
  reason: string;
  evidence: 'missing' | 'damaged';
  at: number;
  zeroFilled: boolean;
}

/**
 * Everything that happens in Spool, one name each, payloads plain data (ids, paths, statuses). Domains emit
 * through an `EventSink<SpoolEvents>`; subscribers are wired in appliance/app/ only. The payloads the console may
 * also receive are in live.wire.ts.
 */
export interface SpoolEvents {
  /** Enqueued (upload, scan, watch folder, SABnzbd addfile/addurl). */
  'queue.item.added': QueueItemEvent;
  /** Status, pause or retry state changed (pending → processing → completed | retrying | failed, ...). */
  'queue.item.changed': QueueItemChangedEvent;
  'queue.item.removed': QueueItemEvent;
  'import.progress': ImportProgressEvent;
  'file.added': FilesAddedEvent;
  'file.removed': FilesRemovedEvent;
  'file.moved': FileMovedEvent;
  /** A directory's listing changed (rclone's vfs/refresh follows it). */
  'directory.changed': DirectoryChangedEvent;
  'health.record.changed': HealthRecordChangedEvent;
  /** A read's article was missing or damaged on every provider. */
  'read.article.failed': ArticleFailedEvent;
  /** A read's article could not be fetched because no provider answered: logged, never evidence. */
  'read.article.unreachable': Omit<ArticleFailedEvent, 'zeroFilled' | 'evidence'>;
  /** Articles recorded missing before that a read has just got whole. */
  'read.article.recovered': { path: string; messageIds: string[] };
  'provider.state.changed': ProviderStateEvent;
  'pool.metrics.tick': PoolMetricsTickEvent;
  'mount.state.changed': MountStateEvent;
  'config.changed': ConfigChangedEvent;
  'stream.opened': StreamOpenedEvent;
  'stream.progress': StreamProgressEvent;
  'stream.closed': StreamClosedEvent;
}

export type SpoolEventName = keyof SpoolEvents;
