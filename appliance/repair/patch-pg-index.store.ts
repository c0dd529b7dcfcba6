import type { Logger } from '../logging/logger.js';
import type { PgDb, PgTx } from '../store/pg/index.js';
import type { FilePatches, PatchRange } from './repair.port.js';

/** The notification channel of the patch index: a JSON array of changed layout ids, or `*` for "read it all". */
export const REPAIR_CHANNEL = 'spool_repair';
/** A NOTIFY payload must stay under 8000 bytes: a longer list of ids becomes `*`. */
const MAX_PAYLOAD = 7000;

interface PatchRow {
  layout_id: string;
  path: string;
  ranges: PatchRange[];
  bytes: number;
  at: number;
}

const COLUMNS = 'layout_id, path, ranges, bytes::float8 AS bytes, at::float8 AS at';

/**
 * The patch index on PostgreSQL (`repair_patches`) and its copy in this node's memory, so `has`/`covers` stay a
 * map lookup. Every change to memory goes through one queue, in order: the load at open, this node's own commits
 * (applied at once after they commit), the rows another node changed (re-read on its `spool_repair`
 * notification, sent in its committing transaction) and a full re-read when the listening connection came back.
 */
export class PgPatchIndex {
  private readonly byLayout = new Map<string, FilePatches>();
  private used = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly unlisten: () => void;

  constructor(
    private readonly db: PgDb,
    private readonly logger: Logger,
  ) {
    this.unlisten = db.listen(
      REPAIR_CHANNEL,
      (payload) => void this.changed(payload).catch(this.failed),
      () => void this.reload().catch(this.failed),
    );
  }

  get(layoutId: string): FilePatches | undefined {
    return this.byLayout.get(layoutId);
  }

  values(): FilePatches[] {
    return [...this.byLayout.values()];
  }

  usedBytes(): number {
    return this.used;
  }

  /** Re-reads every row (at open, after a reconnect, and as a backstop). */
  reload(): Promise<void> {
    return this.serial(async () => {
      const rows = await this.db.query<PatchRow>(`SELECT ${COLUMNS} FROM repair_patches`);
      this.byLayout.clear();
      this.used = 0;
      for (const row of rows.rows) this.put(record(row));
    });
  }

  /** Memory after a commit of this node: the rows as they were written (`gone`: layout ids deleted). */
  applied(records: readonly FilePatches[], gone: readonly string[] = []): Promise<void> {
    return this.serial(async () => {
      for (const id of gone) this.drop(id);
      for (const r of records) this.put(r);
    });
  }

  /** The current row of a layout inside a transaction, locked until it ends. */
  async rowIn(tx: PgTx, layoutId: string): Promise<FilePatches | undefined> {
    const rows = await tx.query<PatchRow>(`SELECT ${COLUMNS} FROM repair_patches WHERE layout_id = $1 FOR UPDATE`, [
      layoutId,
    ]);
    return rows.rows[0] && record(rows.rows[0]);
  }

  async writeIn(tx: PgTx, p: FilePatches): Promise<void> {
    await tx.query(
      `INSERT INTO repair_patches (layout_id, path, ranges, bytes, at) VALUES ($1, $2, $3::json, $4, $5)
       ON CONFLICT (layout_id) DO UPDATE SET path = $2, ranges = $3::json, bytes = $4, at = $5`,
      [p.layoutId, p.path, JSON.stringify(p.ranges), p.bytes, p.at],
    );
  }

  /** Tells every node (this one too) which layouts changed, once the transaction commits. */
  async notifyIn(tx: PgTx, layoutIds: readonly string[]): Promise<void> {
    if (layoutIds.length === 0) return;
    const list = JSON.stringify(layoutIds);
    await tx.query('SELECT pg_notify($1, $2)', [REPAIR_CHANNEL, list.length > MAX_PAYLOAD ? '*' : list]);
  }

  close(): void {
    this.unlisten();
  }

  private async changed(payload: string): Promise<void> {
    if (payload === '*') return this.reload();
    let ids: string[];
    try {
      ids = (JSON.parse(payload) as unknown[]).filter((x): x is string => typeof x === 'string');
    } catch {
      this.logger.warn('unreadable patch index notification; reading the index again', { payload });
      return this.reload();
    }
    await this.serial(async () => {
      const rows = await this.db.query<PatchRow>(`SELECT ${COLUMNS} FROM repair_patches WHERE layout_id = ANY($1)`, [
        ids,
      ]);
      const found = new Map(rows.rows.map((r) => [r.layout_id, record(r)]));
      for (const id of ids) {
        const r = found.get(id);
        if (r) this.put(r);
        else this.drop(id);
      }
    });
  }

  private put(p: FilePatches): void {
    this.drop(p.layoutId);
    this.byLayout.set(p.layoutId, p);
    this.used += p.bytes;
  }

  private drop(layoutId: string): void {
    const before = this.byLayout.get(layoutId);
    if (!before) return;
    this.byLayout.delete(layoutId);
    this.used -= before.bytes;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private readonly failed = (err: Error): void =>
    this.logger.warn('could not bring the patch index up to date', { error: err.message });
}

function record(row: PatchRow): FilePatches {
  return { layoutId: row.layout_id, path: row.path, ranges: row.ranges, bytes: row.bytes, at: row.at };
}
