import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { JellyfinClient } from './jellyfin.client.js';
import { MediaServerError, type MediaServerClient, type MediaServerSettings } from './media-server.client.js';
import type {
  LibraryChangeCause,
  LibraryChangeKind,
  MediaServerRefreshJson,
  MediaServerTestJson,
} from './mediaservers.wire.js';
import { folderOf, mapPath, type PathMapping } from './path-mapping.js';
import { PlexClient } from './plex.client.js';
import { RefreshQueue, type BatchOutcome } from './refresh-queue.js';

/** A change in the library, at a path as Spool or an arr knows it (docs/mediaservers.md "What is told"). */
export interface LibraryChange {
  path: string;
  /** The path is a folder (a job folder, a season folder), not a file in one. */
  isFolder?: boolean;
  kind: LibraryChangeKind;
  cause: LibraryChangeCause;
  /** The health record of the repair this change belongs to. */
  recordId?: number;
}

/** One configured media server (the config's `media_servers.servers` entry). */
export interface MediaServerConfig extends MediaServerSettings {
  enabled: boolean;
  refresh_imports: boolean;
  path_mappings: PathMapping[];
}

export interface MediaServersSettings {
  enabled: boolean;
  debounceMs: number;
  timeoutMs: number;
  servers: MediaServerConfig[];
}

export interface MediaServersDeps {
  clock: Clock;
  logger: Logger;
  settings: () => MediaServersSettings;
  /** Every batch's outcome: the repair history's step and the live activity list (wired in app/). */
  onOutcome?: (outcome: BatchOutcome) => void;
  /** A server whose refreshes began to fail (once per run of failures, not per attempt). */
  onFailing?: (server: string, error: string) => void;
}

const ACTIVITY = 100;

/** Clients by kind: Plex, or the Jellyfin API Jellyfin and Emby share. */
export function clientFor(server: MediaServerSettings): MediaServerClient {
  return server.kind === 'plex' ? new PlexClient(server) : new JellyfinClient(server);
}

/**
 * Tells the configured media servers what changed, folder by folder, each through its own queue (refresh-queue.ts:
 * debounced, batched, retried with back-off). `tell` returns at once; nothing Spool does waits on a media server.
 */
export class MediaServersService {
  private queues = new Map<string, { queue: RefreshQueue; key: string }>();
  private readonly activity: MediaServerRefreshJson[] = [];
  private readonly failing = new Set<string>();

  constructor(private readonly d: MediaServersDeps) {}

  tell(change: LibraryChange): void {
    const settings = this.d.settings();
    if (!settings.enabled) return;
    for (const server of settings.servers) {
      if (!server.enabled || (change.cause === 'import' && !server.refresh_imports)) continue;
      const folder = folderOf(mapPath(change.path, server.path_mappings), change.isFolder ?? false);
      this.queueOf(server).add({ folder, kind: change.kind, cause: change.cause, recordId: change.recordId });
    }
  }

  /** Newest first. */
  recent(): MediaServerRefreshJson[] {
    return [...this.activity];
  }

  /** Proves a server answers with its token; a saved server's token is used when `token` is empty. */
  async test(input: Omit<MediaServerSettings, 'name'> & { name?: string }): Promise<MediaServerTestJson> {
    const saved = this.d.settings().servers.find((s) => s.name === input.name);
    const server = { ...input, name: input.name || input.kind, token: input.token || saved?.token || '' };
    try {
      return await clientFor(server).test(AbortSignal.timeout(this.d.settings().timeoutMs));
    } catch (err) {
      if (!(err instanceof MediaServerError)) throw err;
      return { ok: false, message: err.message, locations: [] };
    }
  }

  close(): void {
    for (const { queue } of this.queues.values()) queue.close();
    this.queues.clear();
  }

  /** The server's queue; a changed URL, kind or token starts a new one (the old one finishes what it holds). */
  private queueOf(server: MediaServerConfig): RefreshQueue {
    const key = `${server.kind} ${server.url} ${server.token}`;
    const had = this.queues.get(server.name);
    if (had?.key === key) return had.queue;
    had?.queue.flush();
    const queue = new RefreshQueue(server, {
      client: clientFor(server),
      clock: this.d.clock,
      settings: () => this.d.settings(),
      onOutcome: (o) => this.record(o),
    });
    this.queues.set(server.name, { queue, key });
    return queue;
  }

  private record(o: BatchOutcome): void {
    this.activity.unshift({ ...o, at: new Date(o.at).toISOString() });
    this.activity.length = Math.min(this.activity.length, ACTIVITY);
    const fields = { server: o.server, folders: o.folders, attempts: o.attempts };
    if (o.state === 'done') {
      if (this.failing.delete(o.server)) this.d.logger.info('media server answers again', fields);
    } else {
      this.d.logger.warn(o.state === 'failed' ? 'media server refresh given up' : 'media server refresh failed', {
        ...fields,
        error: o.error,
      });
      if (!this.failing.has(o.server)) {
        this.failing.add(o.server);
        this.d.onFailing?.(o.server, o.error ?? 'unknown error');
      }
    }
    this.d.onOutcome?.(o);
  }
}
