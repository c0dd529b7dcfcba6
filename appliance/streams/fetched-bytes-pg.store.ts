import type { Logger } from '../logging/logger.js';
import { PgCounters } from '../store/pg/pg-counters.js';
import type { PgDb } from '../store/pg/index.js';
import type { FetchedBytesStore } from './fetched-bytes.port.js';
import { FETCH_CLASSES, type FetchClass, type FetchedBytesDay } from './streams.wire.js';

/**
 * Bytes the pool fetched per class per UTC day in PostgreSQL (`stream_fetched_bytes`, a column per class). Each
 * node adds what its own pool fetched since its last flush (`player = player + n`), so a day holds every node's
 * sum and every node's Streams view shows the same totals; `all()` answers from the copy kept in memory
 * (store/pg/pg-counters.ts: this node's adds at once, other nodes' on their notification on `spool_streams`, and a
 * full re-read every 30 s and on reconnect).
 */
export class PgFetchedBytesStore implements FetchedBytesStore {
  private constructor(private readonly counters: PgCounters<'day', FetchClass, never>) {}

  static async open(db: PgDb, logger: Logger, refreshMs?: number): Promise<PgFetchedBytesStore> {
    const spec = {
      table: 'stream_fetched_bytes',
      keys: ['day'] as const,
      counters: FETCH_CLASSES,
      labels: [] as const,
      channel: 'spool_streams',
      refreshMs,
    };
    return new PgFetchedBytesStore(await PgCounters.open(db, spec, logger));
  }

  *all(): Iterable<FetchedBytesDay> {
    const rows = [...this.counters.rows()].sort((a, b) => (a.day < b.day ? -1 : 1));
    for (const { day, ...bytes } of rows) yield { day, bytes };
  }

  add(day: FetchedBytesDay): Promise<void> {
    const row = { day: day.day } as { day: string } & Record<FetchClass, number>;
    for (const c of FETCH_CLASSES) row[c] = day.bytes[c] ?? 0;
    return this.counters.add(row);
  }

  dropBefore(day: string): Promise<void> {
    return this.counters.deleteWhere('day < $1', [day], (row) => row.day < day);
  }

  /** Resolves when every add so far is stored. */
  flushed(): Promise<void> {
    return this.counters.flushed();
  }

  /** Stops the re-reads (await `flushed()` first to keep the last adds). */
  close(): void {
    this.counters.close();
  }
}

/** The Streams view's port on PostgreSQL (the schema migrated first: STREAMS_PG_MIGRATIONS). */
export function openPgFetchedBytes(db: PgDb, logger: Logger): Promise<PgFetchedBytesStore> {
  return PgFetchedBytesStore.open(db, logger);
}
