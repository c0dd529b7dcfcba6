import type { PgDb } from './pg-db.js';

/**
 * The first table of the current schema, but the schema versions (`spool_schema`), that holds a row, or null when
 * none does: `spool migrate` copies into an empty database only.
 */
export async function firstTableWithRows(db: Pick<PgDb, 'query'>): Promise<string | null> {
  const tables = await db.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'spool_schema'`,
  );
  for (const { name } of tables.rows) {
    const rows = await db.query(`SELECT 1 FROM ${name} LIMIT 1`);
    if (rows.rowCount) return name;
  }
  return null;
}

/**
 * Drops every table, sequence and function of the current schema (a restore puts a backup's store in their place,
 * after its safety backup was written): the database is left as a new, empty one.
 */
export async function emptyCurrentSchema(db: Pick<PgDb, 'query'>): Promise<void> {
  const { rows } = await db.query<{ name: string }>('SELECT quote_ident(current_schema()) AS name');
  const schema = rows[0]!.name;
  await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await db.query(`CREATE SCHEMA ${schema}`);
}
