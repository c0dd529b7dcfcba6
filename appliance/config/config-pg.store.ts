import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../logging/logger.js';
import { PG_LOCKS, type PgDb, type PgTx } from '../store/pg/index.js';
import type { ConfigService } from './config.service.js';
import { startSharing, type SharedConfigStore } from './config-share.js';
import type { SharedConfigRow } from './shared-link.js';

/** The channel a save announces its version on. */
export const CONFIG_CHANNEL = 'spool_config';

/** The shared configuration document in PostgreSQL (table `spool_config`, one row). */
export class PgConfigStore implements SharedConfigStore {
  constructor(private readonly db: PgDb) {}

  seed(doc: object): Promise<SharedConfigRow & { seeded: boolean }> {
    return this.db.tx(
      async (tx) => {
        const row = await readRow(tx);
        if (row) return { ...row, seeded: false };
        await tx.query('INSERT INTO spool_config (id, version, doc) VALUES (1, 1, $1::jsonb)', [JSON.stringify(doc)]);
        return { version: 1, doc, seeded: true };
      },
      { lock: PG_LOCKS.config },
    );
  }

  read(): Promise<SharedConfigRow | null> {
    return readRow(this.db);
  }

  write(doc: object, expected: number): Promise<number | null> {
    return this.db.tx(
      async (tx) => {
        const res = await tx.query<{ version: number }>(
          `INSERT INTO spool_config (id, version, doc) VALUES (1, $2::integer + 1, $1::jsonb)
           ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc, saved_at = now()
           WHERE spool_config.version = $2::integer
           RETURNING version`,
          [JSON.stringify(doc), expected],
        );
        const version = res.rows[0]?.version;
        if (version === undefined) return null;
        await tx.query('SELECT pg_notify($1, $2)', [CONFIG_CHANNEL, String(version)]);
        return version;
      },
      { lock: PG_LOCKS.config },
    );
  }

  async watch(changed: (version?: number) => void): Promise<() => void> {
    const probe = `ready:${randomUUID()}`;
    let ready: () => void = () => undefined;
    const heard = new Promise<void>((resolve) => (ready = resolve));
    const stop = this.db.listen(
      CONFIG_CHANNEL,
      (payload) => {
        if (payload === probe) return ready();
        if (payload.startsWith('ready:')) return; // another node making sure it listens
        const version = Number(payload);
        changed(Number.isInteger(version) ? version : undefined);
      },
      () => changed(),
    );
    // LISTEN starts on the node's listening connection a moment later: a save announced before it would be missed.
    // Hearing its own probe proves the node listens; bounded, since a database that is down is reported elsewhere.
    for (let tries = 0; tries < 50; tries++) {
      await this.db.notify(CONFIG_CHANNEL, probe).catch(() => undefined);
      const got = await Promise.race([heard.then(() => true), delay(200).then(() => false)]);
      if (got) break;
    }
    return stop;
  }
}

async function readRow(q: PgTx): Promise<SharedConfigRow | null> {
  const res = await q.query<{ version: number; doc: unknown }>('SELECT version, doc FROM spool_config WHERE id = 1');
  return res.rows[0] ?? null;
}

/**
 * Shares the node's configuration through PostgreSQL (config-share.ts): the stored document is adopted, or seeded
 * with this node's. Call it once the database is open and CONFIG_PG_MIGRATIONS ran (config/config.storage.ts), before
 * the domains are built, so they start with the shared settings. Returns the stop.
 */
export function shareConfig(config: ConfigService, db: PgDb, logger: Logger): Promise<() => void> {
  return startSharing(config, new PgConfigStore(db), logger);
}
