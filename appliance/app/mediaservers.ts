import { posix } from 'node:path';
import type { SpoolEvents } from '../events/index.js';
import { MediaServersService, type MediaServersSettings } from '../mediaservers/index.js';
import { notices, type Notifier } from '../notify/index.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

/**
 * Media servers (docs/mediaservers.md): told of every library change Spool makes or hears of. Subscribers hand the
 * change over and return; the service's queues send on their own, so nothing waits on a media server.
 */
export function createMediaServers(core: AppCore, notifier: Notifier): Built<MediaServersService> {
  const { config, events, clock } = core;
  const settings = (): MediaServersSettings => {
    const c = config.get().media_servers;
    return { ...c, debounceMs: c.debounce_seconds * 1000, timeoutMs: c.timeout_seconds * 1000 };
  };
  const service = new MediaServersService({
    clock,
    logger: core.logger.child('mediaservers'),
    settings,
    onOutcome: (o) =>
      events.emit('mediaserver.refreshed', {
        server: o.server,
        folders: o.folders,
        state: o.state,
        attempts: o.attempts,
        error: o.error,
        repairs: o.repairs.map((r) => ({ record_id: r.recordId, folder: r.folder })),
      }),
    onFailing: (server, error) => notifier.notify(notices.mediaServerFailed(server, error, clock.now())),
  });
  /** A tree path as the host sees it: under the mount when one is set. */
  const onMount = (treePath: string) => posix.join(config.get().mount_path || '/', treePath);
  const tell = (e: SpoolEvents['library.changed']) =>
    service.tell({ path: e.path, isFolder: e.is_folder, kind: e.kind, cause: e.cause, recordId: e.record_id });
  const stops = [
    events.on('library.changed', tell),
    events.on('file.removed', (e) => {
      for (const p of e.paths) tell({ path: onMount(p), is_folder: false, kind: 'Deleted', cause: 'delete' });
    }),
    events.on('queue.item.changed', (e) => {
      if (e.status !== 'completed' || e.previous_status === 'completed' || !settings().enabled) return;
      void jobFolder(core, e.id).then((folder) => {
        if (folder) tell({ path: onMount(folder), is_folder: true, kind: 'Created', cause: 'import' });
      });
    }),
  ];
  return built(service, () => service.close(), ...stops);
}

/** The completed job's folder in the tree (null when the item is gone or wrote none). */
async function jobFolder(core: AppCore, id: number): Promise<string | null> {
  try {
    return (await core.stores.queue.get(id))?.targetPath ?? null;
  } catch (err) {
    core.logger.warn('could not read a completed import for the media servers', { id, error: String(err) });
    return null;
  }
}
