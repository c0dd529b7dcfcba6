import type { ArticleClient } from '../articles/index.js';
import { createHealth as createHealthDomain, type HealthDomain } from '../health/index.js';
import type { NntpPool } from '../nntp/index.js';
import { createRepairs, type FileRepairer, type Par2RepairService, type Repairs } from '../repair/index.js';
import type { StreamRegistry } from '../streams/stream-registry.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { wireArticleFailures } from './article-failures.js';
import type { AppCore } from './core.js';
import { wireHealthEvents } from './health-events.js';
import { playbackLoad } from './health-playback.js';
import type { Built } from './lifetime.js';
import { wireRepairHistory } from './repair-history.js';
import { replacementFiles } from './replacement-files.js';
import type { SabnzbdDomain } from './sabnzbd.js';

/** What file health is built on besides the core. */
export interface HealthParts {
  par2: Par2RepairService;
  vfs: VfsService;
  pool: ArticleClient & Pick<NntpPool, 'playerWaiting'>;
  /** The arrs' repair (or a test's). */
  repairer: FileRepairer;
  /** The Streams view: scheduled checks yield to players (app/health-playback.ts). */
  streams: Pick<StreamRegistry, 'list'>;
  /** A file keeps the id of the queue item that wrote it; its nzo_id is the download id the arr recorded. */
  sabnzbd: Pick<SabnzbdDomain, 'nzo'>;
}

/**
 * File health (docs/health.md, "Check, decide, act") on the health store's port: checks and verdicts (appliance/health),
 * and the repairs that act on them (appliance/repair: the brake, PAR2 first, then the arr); its records follow the
 * tree, it keeps every repair's end and every article a read found missing. The worker starts only on the node that
 * leads (app/cluster/background.ts).
 */
export function createHealth(core: AppCore, parts: HealthParts): Built<{ health: HealthDomain; repairs: Repairs }> {
  const { events, logger, stores } = core;
  // An admin releasing the brake wakes health's worker, built after the repairs.
  const wake = { worker: (): void => undefined };
  const repairs = createRepairs({
    store: stores.health,
    ledger: stores.repairLedger,
    config: core.config,
    sizeOf: (path) => parts.vfs.stat(path)?.size,
    // A file keeps the id of the queue item that wrote it; its nzo_id is the download id the arr recorded.
    downloadIdOf: (path) => {
      const itemId = parts.vfs.stat(path)?.queueItemId;
      return itemId === undefined ? undefined : parts.sabnzbd.nzo.of(itemId);
    },
    arr: () => parts.repairer,
    par2: () => parts.par2,
    replacements: replacementFiles({ vfs: parts.vfs, pool: parts.pool, queue: stores.queue, nzo: parts.sabnzbd.nzo }),
    clock: core.clock,
    logger,
    events,
    wake: () => wake.worker(),
  });
  const health = createHealthDomain({
    store: stores.health,
    config: core.config,
    vfs: parts.vfs,
    client: parts.pool,
    clock: core.clock,
    logger,
    actions: repairs.actions,
    patched: (path, start, end) => parts.par2.patched(path, start, end),
    events,
    playback: playbackLoad(parts.streams, parts.pool),
    startWorker: false,
  });
  wake.worker = () => health.runner.wake();
  wireArticleFailures({ events, health, logger: logger.child('vfs') });
  return {
    serves: { health, repairs },
    stops: [
      () => health.close(),
      wireHealthEvents(events, health),
      wireRepairHistory(events, repairs.control, logger.child('health')),
    ],
  };
}
