import { PG_LOCKS, type PgDb, type PgTx } from './pg-db.js';

/** One schema step of one domain on PostgreSQL; runs in one transaction with its version bump (all or nothing). */
export interface PgMigration {
  version: number;
  description: string;
  up(tx: PgTx): Promise<void>;
}

/** A schema step that is plain SQL: its statements run in order (most create a table or two). */
export function sqlMigration(version: number, description: string, ...statements: string[]): PgMigration {
  return {
    version,
    description,
    up: async (tx) => {
      for (const sql of statements) await tx.query(sql);
    },
  };
}

/**
 * Brings each domain's schema up to its newest step, under a session advisory lock, so two nodes starting
 * together never both run a step. Versions are 1..n per scope; a database written by a newer Spool is refused.
 */
export async function migratePg(db: PgDb, scopes: Record<string, readonly PgMigration[]>): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PG_LOCKS.migrations]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS spool_schema (scope text PRIMARY KEY, version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const [scope, migrations] of Object.entries(scopes)) {
      const sorted = [...migrations].sort((a, b) => a.version - b.version);
      sorted.forEach((m, i) => {
        if (m.version !== i + 1) throw new Error(`Migrations of '${scope}' must be numbered 1..n; found ${m.version}`);
      });
      const row = await client.query<{ version: number }>('SELECT version FROM spool_schema WHERE scope = $1', [scope]);
      const from = row.rows[0]?.version ?? 0;
      if (from > sorted.length)
        throw new Error(
          `The database's '${scope}' schema is version ${from}, newer than this Spool knows (${sorted.length}); use a newer Spool`,
        );
      for (const m of sorted.slice(from)) {
        await client.query('BEGIN');
        try {
          await m.up(client);
          await client.query(
            `INSERT INTO spool_schema (scope, version) VALUES ($1, $2)
             ON CONFLICT (scope) DO UPDATE SET version = EXCLUDED.version, applied_at = now()`,
            [scope, m.version],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`PostgreSQL migration '${scope}' ${m.version} (${m.description}) failed: ${String(err)}`);
        }
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PG_LOCKS.migrations]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
