/**
 * `metadata.database_url` (docs/configuration.md, `metadata`): a PostgreSQL URL selects the shared store for several
 * nodes; unset (or empty) keeps the embedded LMDB store. Env `SPOOL_DATABASE_URL` wins over the file (main.ts).
 * Pure functions, no Node imports: the schema and main.ts share them (secrets.ts masks the password in answers).
 */
export const DATABASE_URL_MESSAGE =
  'Must be a postgres:// or postgresql:// URL, like postgres://spool:secret@db:5432/spool';

/** Whether `url` is a PostgreSQL connection URL with a host (the `pg` client takes it as is). */
export function isDatabaseUrl(url: string): boolean {
  if (/[\r\n\0\s]/.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
  } catch {
    return false;
  }
}
