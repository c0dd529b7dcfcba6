import type { Logger } from '../logging/logger.js';
import { PgCounters } from '../store/pg/pg-counters.js';
import type { PgDb } from '../store/pg/index.js';
import type { DayKey, DayTotals, DownloadTotalsStore, NzoIdStore } from './sabnzbd.port.js';

export const SALT_KEY = 'nzo_salt';
/** A salt as nzo-ids.ts makes it; anything else stored under the key is replaced (as the LMDB store does). */
const SALT_SHAPE = '^[a-z0-9]+$';

/**
 * The nzo_id salt in PostgreSQL (`sabnzbd_meta`). The first node to start inserts it; a second node starting at the
 * same moment finds the row taken (`ON CONFLICT`) and reads the winner's, so every node forms the same nzo_ids.
 */
export class PgNzoIdStore implements NzoIdStore {
  constructor(private readonly db: PgDb) {}

  async saltOrCreate(make: () => string): Promise<string> {
    await this.db.query(
      `INSERT INTO sabnzbd_meta (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE sabnzbd_meta.value !~ '${SALT_SHAPE}'`,
      [SALT_KEY, make()],
    );
    const { rows } = await this.db.query<{ value: string }>('SELECT value FROM sabnzbd_meta WHERE key = $1', [
      SALT_KEY,
    ]);
    const salt = rows[0]?.value;
    if (salt === undefined) throw new Error('The nzo_id salt was not stored');
    return salt;
  }
}

type TotalsCounters = PgCounters<'day' | 'provider_id', 'bytes' | 'tried' | 'failed', 'host'>;

/**
 * Download totals per provider and day in PostgreSQL (`sabnzbd_download_totals`). Every node moves its own pool's
 * counts in with an increment (`bytes = bytes + n`), so the totals are every node's sum; `all()` answers from the
 * copy kept in memory (store/pg/pg-counters.ts: this node's adds at once, other nodes' on their notification on
 * `spool_sabnzbd`, and a full re-read every 30 s and on reconnect).
 */
export class PgDownloadTotalsStore implements DownloadTotalsStore {
  private constructor(private readonly counters: TotalsCounters) {}

  static async open(db: PgDb, logger: Logger, refreshMs?: number): Promise<PgDownloadTotalsStore> {
    const spec = {
      table: 'sabnzbd_download_totals',
      keys: ['day', 'provider_id'],
      counters: ['bytes', 'tried', 'failed'],
      labels: ['host'],
      channel: 'spool_sabnzbd',
      refreshMs,
    } as const;
    return new PgDownloadTotalsStore(await PgCounters.open(db, spec, logger));
  }

  add(key: DayKey, delta: DayTotals): Promise<void> {
    const { host, bytes, tried, failed } = delta;
    return this.counters.add({ day: key.day, provider_id: key.providerId, host, bytes, tried, failed });
  }

  flushed(): Promise<void> {
    return this.counters.flushed();
  }

  *all(): Iterable<DayTotals & DayKey> {
    for (const r of this.counters.rows())
      yield { host: r.host, bytes: r.bytes, tried: r.tried, failed: r.failed, day: r.day, providerId: r.provider_id };
  }

  /** Stops the re-reads (await `flushed()` first to keep the last adds). */
  close(): void {
    this.counters.close();
  }
}

/** The SABnzbd API's ports on PostgreSQL (the schema migrated first: SABNZBD_PG_MIGRATIONS). */
export async function openPgSabnzbdStores(
  db: PgDb,
  logger: Logger,
): Promise<{ nzoIds: PgNzoIdStore; downloadTotals: PgDownloadTotalsStore; close(): Promise<void> }> {
  const downloadTotals = await PgDownloadTotalsStore.open(db, logger);
  return {
    nzoIds: new PgNzoIdStore(db),
    downloadTotals,
    async close() {
      await downloadTotals.flushed().catch(() => undefined);
      downloadTotals.close();
    },
  };
}
