import type { PgTx } from '../store/pg/index.js';
import type { QueueRecord } from './queue.types.js';

/** Thrown through `choose` when it asks about a folder whose holds were not read yet (never seen outside). */
const NOT_READ = Symbol('job dir holds not read');

/**
 * The job directory holds (`queue_job_dirs`: path → the item holding it) inside one reservation's transaction,
 * which runs under `PG_LOCKS.jobDirs` (queue-pg.store.ts), so what it reads cannot change before it commits.
 * `choose` is synchronous and asks `holderOf(path)` for paths it picks itself, so the holds are read by folder as
 * it asks: a question about a folder not read yet stops the run, the folder's holds are read, and `choose` runs
 * again (it is pure: queue.port.ts). An item's holds go when it is removed (ON DELETE CASCADE), so every hold read
 * is a live item's, as LmdbQueueStore's `jobDirOwner` answers.
 */
export class PgJobDirHolds {
  private readonly holders = new Map<string, number>();
  private readonly folders = new Set<string>();

  constructor(private readonly tx: PgTx) {}

  async choose(pick: (holderOf: (path: string) => number | undefined) => string): Promise<string> {
    for (;;) {
      let unread: string | undefined;
      const holderOf = (path: string): number | undefined => {
        const folder = folderOf(path);
        if (!this.folders.has(folder)) {
          unread = folder;
          throw NOT_READ;
        }
        return this.holders.get(path);
      };
      let chosen: string | undefined;
      try {
        chosen = pick(holderOf);
      } catch (err) {
        if (err !== NOT_READ) throw err;
      }
      // Also when `pick` swallowed the stop: its answer rested on a folder not read.
      if (unread === undefined && chosen !== undefined) return chosen;
      await this.read(unread!);
    }
  }

  /** Records the item as the holder of `path`, releasing the directory it held before. */
  async hold(item: QueueRecord, path: string): Promise<void> {
    if (item.targetPath && item.targetPath !== path)
      await this.tx.query('DELETE FROM queue_job_dirs WHERE path = $1 AND item_id = $2', [item.targetPath, item.id]);
    await this.tx.query(
      `INSERT INTO queue_job_dirs (path, item_id) VALUES ($1, $2)
       ON CONFLICT (path) DO UPDATE SET item_id = EXCLUDED.item_id`,
      [path, item.id],
    );
  }

  /** Every hold under a folder (its paths sort together: the column is COLLATE "C", a folder ends in '/'). */
  private async read(folder: string): Promise<void> {
    const { rows } =
      folder === ''
        ? await this.tx.query<{ path: string; item_id: string }>('SELECT path, item_id FROM queue_job_dirs')
        : await this.tx.query<{ path: string; item_id: string }>(
            'SELECT path, item_id FROM queue_job_dirs WHERE path >= $1 AND path < $2',
            [folder, folder.slice(0, -1) + '0'], // '0' follows '/'
          );
    for (const row of rows) this.holders.set(row.path, Number(row.item_id));
    this.folders.add(folder);
  }
}

/** '/complete/tv/Name' -> '/complete/tv/' ('' for a path without a slash). */
function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}
