import type { ArticleClient } from '../articles/index.js';
import type { ConfigService } from '../config/index.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { HealthStore } from '../health/index.js';
import type { Logger } from '../logging/logger.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import { Par2RepairService, type PatchStore, type Par2FileStore, type RepairFiles } from '../repair/index.js';

/** The repair domain's stores (docs/health.md "PAR2 repair", opened by app/stores.ts before the reader serves the patches). */
export interface RepairStores {
  patches: PatchStore;
  par2Files: Par2FileStore;
}

export interface RepairServiceDeps {
  stores: RepairStores;
  files: RepairFiles;
  client: ArticleClient;
  health: HealthStore;
  config: ConfigService;
  logger: Logger;
}

/**
 * PAR2 repair (docs/health.md "PAR2 repair") on the patches' and kept PAR2 files' ports, reading the files through
 * the pool; a file that leaves the tree takes its patches along.
 */
export function createRepair(core: AppCore, files: RepairFiles, client: ArticleClient): Built<Par2RepairService> {
  const { stores, config, logger, events } = core;
  const repairStores = { patches: stores.patches, par2Files: stores.par2Files };
  const par2 = buildPar2Repair({ stores: repairStores, files, client, health: stores.health, config, logger });
  return built(par2, wireRepairEvents(events, repairStores, logger.child('repair')));
}

/** The PAR2 repair service, reading the last verdict's bad ranges of a file from the health store. */
function buildPar2Repair(d: RepairServiceDeps): Par2RepairService {
  return new Par2RepairService({
    files: d.files,
    client: d.client,
    patches: d.stores.patches,
    par2Files: d.stores.par2Files,
    knownBad: async (path) => (await d.health.byPath(path))?.missing ?? [],
    settings: () => ({ maxPatchBytes: d.config.get().health.par2_patch_max_mb * 2 ** 20 }),
    logger: d.logger.child('repair'),
  });
}

/** A file that leaves the tree (deleted, or replaced by a re-import) takes its patches along; a move keeps them. */
function wireRepairEvents(events: EventSource<SpoolEvents>, stores: RepairStores, log: Logger): () => void {
  const failed = (what: string) => (err: Error) => log.warn(what, { error: err.message });
  // one after another: a move's path change lands before the 'removed' of its source is looked at
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = (work: () => Promise<unknown>, what: string) => {
    chain = chain.then(work).catch(failed(what));
  };
  const stops = [
    events.on('file.moved', (e) => inOrder(() => stores.patches.movePath(e.from, e.to), 'could not move patches')),
    events.on('file.removed', (e) =>
      inOrder(() => stores.patches.removePaths(e.paths), 'could not drop patches of removed files'),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}
