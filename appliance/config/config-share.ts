import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { ConfigService } from './config.service.js';
import { sharedPart } from './node-local.js';
import { StaleSharedConfig, type SharedConfigLink, type SharedConfigRow } from './shared-link.js';

/** Where the shared document is kept (config-pg.store.ts on PostgreSQL): one row, its version bumped by each save. */
export interface SharedConfigStore {
  /** Stores `doc` as version 1 unless a document is stored already (atomic: the first node wins); answers what holds. */
  seed(doc: object): Promise<SharedConfigRow & { seeded: boolean }>;
  read(): Promise<SharedConfigRow | null>;
  /**
   * Stores `doc` as version `expected + 1` if the stored version is still `expected`, and tells every node;
   * null when another node saved first.
   */
  write(doc: object, expected: number): Promise<number | null>;
  /**
   * Calls `changed` with the version of each save (any node's), and without one when notices may have been lost.
   * Resolves once notices are heard (a save made after that is never missed); to the stop.
   */
  watch(changed: (version?: number) => void): Promise<() => void>;
}

/**
 * Shares `config` with the other nodes (docs/configuration.md, "Several nodes"): adopts the stored document, or
 * seeds it with this node's when there is none, then stores every save there and adopts every other node's save as
 * it is announced. A document this node cannot validate is refused with a log, and the node keeps its running
 * config. Returns the stop (the node's config is then its own again).
 */
export async function startSharing(
  config: ConfigService,
  store: SharedConfigStore,
  logger: Logger,
): Promise<() => void> {
  let known = 0;
  /** The last refusal, so one is logged once, not on every notice. */
  let refused = '';
  const link: SharedConfigLink = {
    async save(next) {
      let version: number | null;
      try {
        version = await store.write(sharedPart(next), known);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        logger.error('could not store the configuration for the other nodes', { error: reason });
        throw new AppError('UNEXPECTED', `The configuration could not be stored in the shared database: ${reason}`);
      }
      if (version === null) throw new StaleSharedConfig();
      known = version;
    },
    async newer() {
      const row = await store.read();
      return row !== null && row.version > known ? row : null;
    },
    adopted: (version) => (known = version),
  };

  // Listening first: a save another node makes while this one starts is adopted after the first read, not missed.
  const stopWatching = await store.watch((version) => {
    if (version !== undefined && version <= known) return; // this node's own save, or one it already runs
    void pull();
  });
  let first: Awaited<ReturnType<SharedConfigStore['seed']>>;
  try {
    first = await store.seed(sharedPart(config.get()));
  } catch (err) {
    stopWatching();
    throw err;
  }
  config.linkShared(link);
  if (first.seeded) {
    known = first.version;
    logger.info('seeded the shared configuration with this node’s', { version: known });
  } else {
    await pull(true);
  }

  async function pull(startup = false): Promise<void> {
    try {
      const out = await config.pullShared({ startup });
      if (out) logger.info('adopted the shared configuration', { version: known });
      refused = '';
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (!(err instanceof AppError && err.code === 'VALIDATION_FAILED')) {
        // the database is away: the listener's reconnect brings the next attempt
        logger.warn('could not read the shared configuration', { error: reason });
        return;
      }
      if (reason === refused) return;
      refused = reason;
      logger.error('refused the shared configuration; this node keeps its running one', { error: reason });
    }
  }

  return () => {
    stopWatching();
    config.linkShared(null);
  };
}
