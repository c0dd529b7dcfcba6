import type { Clock } from '../clock/clock.js';
import type { ConfigService } from '../config/index.js';
import type { EventSource, SpoolEvents } from '../events/index.js';
import type { ImporterDomain } from '../importer/index.js';
import type { Logger } from '../logging/logger.js';
import { RecentWarnings } from '../logging/recent-warnings.js';
import type { NntpPool } from '../nntp/index.js';
import {
  DownloadTotals,
  FallbackClient,
  forwardTo,
  NzoIds,
  SabnzbdService,
  type DownloadTotalsStore,
  type NzoIdStore,
} from '../sabnzbd/index.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

export interface SabnzbdDeps {
  importer: ImporterDomain;
  config: ConfigService;
  vfs: VfsService;
  /** The nzo-id salt's store and the download totals' (app/stores.ts). */
  nzoIds: NzoIdStore;
  downloadTotals: DownloadTotalsStore;
  logger: Logger;
  clock: Clock;
  /** Its per-provider counters become the persistent download totals (server_stats). */
  pool: Pick<NntpPool, 'metrics'>;
  events: EventSource<SpoolEvents>;
}

/** The SABnzbd API's state: the nzo_id map and the service the mode table calls (routes: appliance/app/routes.ts). */
export interface SabnzbdDomain {
  service: SabnzbdService;
  nzo: NzoIds;
  totals: DownloadTotals;
  /** Counts what the pool still holds and stops the timer; call before the pool closes. */
  close(): void;
}

/**
 * The SABnzbd API's service on the nzo-id salt's and download totals' ports (the arrs' download client): nzo_ids,
 * the fallback SABnzbd, the download totals counted from the pool. Stopped before the pool closes.
 */
export async function createSabnzbd(
  core: AppCore,
  parts: Pick<SabnzbdDeps, 'importer' | 'vfs' | 'pool'>,
): Promise<Built<SabnzbdDomain>> {
  const { stores } = core;
  const sabnzbd = await buildSabnzbd({
    ...core,
    ...parts,
    nzoIds: stores.nzoIds,
    downloadTotals: stores.downloadTotals,
  });
  return built(sabnzbd, () => sabnzbd.close());
}

async function buildSabnzbd(deps: SabnzbdDeps): Promise<SabnzbdDomain> {
  const nzo = await NzoIds.open(deps.nzoIds);
  // sabnzbd.fallback_host: NZBs Spool cannot stream go to that real SABnzbd (read live, so a PATCH applies at once).
  const fallback = new FallbackClient(() => {
    const c = deps.config.get().sabnzbd;
    return { host: c.fallback_host, apiKey: c.fallback_api_key };
  });
  deps.importer.onUnstreamable(forwardTo(fallback, deps.importer, deps.logger.child('sabnzbd')));
  const totals = new DownloadTotals({
    store: deps.downloadTotals,
    clock: deps.clock,
    logger: deps.logger.child('sabnzbd'),
    counters: () =>
      deps.pool.metrics().providers.map((p) => ({
        id: p.id,
        host: p.host,
        bytes: p.bytes_downloaded,
        tried: p.commands,
        failed: p.errors + p.missing_articles,
      })),
  });
  totals.start();
  // A removed provider leaves the pool once its connections close: count what it did before that.
  const offConfig = deps.events.on('config.changed', () => totals.sample());
  const warnings = new RecentWarnings(deps.logger, deps.clock);
  const service = new SabnzbdService({
    importer: deps.importer,
    config: deps.config,
    vfs: deps.vfs,
    nzo,
    fallback,
    totals,
    warnings,
  });
  return {
    service,
    nzo,
    totals,
    close() {
      offConfig();
      warnings.close();
      totals.close();
    },
  };
}
