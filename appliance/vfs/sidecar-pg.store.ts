import type { Logger } from '../logging/logger.js';
import type { PgDb, PgTx } from '../store/pg/index.js';
import type { SidecarFiles } from './sidecar.port.js';

/** Joins a tree write's transaction (tree-pg.store.ts `beforeCommit`); false when no write is open. */
export type InTreeWrite = (sql: (tx: PgTx) => Promise<unknown>) => boolean;

/**
 * Sidecars (sidecar.port.ts) in PostgreSQL (`vfs_sidecars`, vfs-pg.migrations.ts), shared by every node. They are
 * small (webdav.max_sidecar_size_mb), so each read is one query. A copy made inside a tree write is inserted in
 * that write's transaction, so no node sees the copied entry before its bytes. Without a tree to join (the copy of
 * `spool migrate`) a copy is started at once and awaited by reads and removals of its new id on this node.
 */
export class PgSidecarStore implements SidecarFiles {
  private readonly copies = new Map<string, Promise<void>>();

  constructor(
    private readonly db: PgDb,
    private readonly logger: Logger,
    private readonly inTreeWrite: InTreeWrite = () => false,
  ) {}

  async write(id: string, bytes: Buffer): Promise<void> {
    await this.db.query(
      'INSERT INTO vfs_sidecars (id, bytes) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes',
      [checkId(id), bytes],
    );
  }

  async read(id: string): Promise<Buffer> {
    await this.copies.get(id);
    const row = (await this.db.query<{ bytes: Buffer }>('SELECT bytes FROM vfs_sidecars WHERE id = $1', [checkId(id)]))
      .rows[0];
    if (!row) throw Object.assign(new Error(`no sidecar ${id}`), { code: 'ENOENT' });
    return row.bytes;
  }

  async remove(id: string): Promise<void> {
    await this.copies.get(id);
    await this.db.query('DELETE FROM vfs_sidecars WHERE id = $1', [checkId(id)]);
  }

  copySync(from: string, to: string): void {
    checkId(from);
    checkId(to);
    const sql = 'INSERT INTO vfs_sidecars (id, bytes) SELECT $2, bytes FROM vfs_sidecars WHERE id = $1';
    if (this.inTreeWrite((tx) => tx.query(sql, [from, to]))) return;
    const copy = this.db
      .query(sql, [from, to])
      .then(
        () => undefined,
        (err: Error) => this.logger.warn('sidecar copy failed', { from, to, error: err.message }),
      )
      .finally(() => this.copies.delete(to));
    this.copies.set(to, copy);
  }
}

function checkId(id: string): string {
  if (!/^[0-9a-f-]+$/.test(id)) throw new Error(`bad sidecar id ${id}`);
  return id;
}

/** The sidecars of a node backed by PostgreSQL (the schema is VFS_PG_MIGRATIONS, migrated with the tree's). */
export function openPgSidecars(db: PgDb, logger: Logger, inTreeWrite?: InTreeWrite): PgSidecarStore {
  return new PgSidecarStore(db, logger, inTreeWrite);
}
