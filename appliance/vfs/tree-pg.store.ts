import { randomUUID } from 'node:crypto';
import { encodeLayout } from '../layout/index.js';
import type { Logger } from '../logging/logger.js';
import { migrate, type Store } from '../store/index.js';
import { PG_LOCKS, type PgDb, type PgTx } from '../store/pg/index.js';
import { parentOf, baseName } from './path.js';
import { TreeOverlay } from './tree-overlay.js';
import { readState, TreeReplica, type TreeChanges } from './tree-replica.store.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';
import { openTreeNodes } from './tree-nodes.store.js';
import type { TreeStore } from './tree.port.js';
import type { FileLayout, VfsNode } from './types.js';

/** The notification channel of the tree: the payload is the log sequence of the write that committed. */
export const TREE_CHANNEL = 'spool_tree';

export interface PgTreeOptions {
  /** How often the replica asks for log rows it may have missed (a backstop to the notifications), ms. */
  pollMs?: number;
  /** Log rows kept at least, and the age past which older ones are pruned (ms). */
  keepRows?: number;
  keepMs?: number;
}

/**
 * The virtual tree's port (tree.port.ts) on PostgreSQL, for several nodes serving one library (docs/architecture.md,
 * "Several nodes"). PostgreSQL holds the truth (vfs-pg.migrations.ts); every read is served by the node's replica
 * (tree-replica.store.ts, an `LmdbTreeStore` on local LMDB), so FUSE getattr and WebDAV listings never wait for the
 * network. A `write` is one PostgreSQL transaction under the tree's advisory lock: the replica catches up with the
 * log, the action runs over it (reading its own writes from an overlay, tree-overlay.ts), the changed rows and one
 * log row are written and `spool_tree` notified; once committed, the changes go into the replica. Other nodes
 * catch up on the notification, on a reconnect of the listening connection, and on a slow poll.
 */
export class PgTreeStore implements TreeStore {
  readonly replica: TreeReplica;
  private overlay: TreeOverlay | null = null;
  /** SQL to run in the open write's transaction before its changes commit (see `beforeCommit`). */
  private commitHooks: Array<(tx: PgTx) => Promise<unknown>> = [];
  /** This node's writes, one at a time (each holds a pooled connection while it waits for the tree lock). */
  private writing: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(paths: string[]) => void>();
  private stops: (() => void)[] = [];
  private syncing: Promise<void> | null = null;
  private again = false;
  private polls = 0;

  constructor(
    private readonly db: PgDb,
    replica: (changed: (paths: string[]) => void) => TreeReplica,
    private readonly logger: Logger,
    private readonly opts: PgTreeOptions = {},
  ) {
    this.replica = replica((paths) => this.listeners.forEach((l) => l(paths)));
  }

  /**
   * Listens, then catches up (a rebuild on a first start): a write that commits after the listening connection is
   * up is notified, one before is in the log. Then polls as a backstop.
   */
  async start(): Promise<void> {
    const hello = `hello ${randomUUID()}`;
    let heard!: () => void;
    const listening = new Promise<void>((resolve) => (heard = resolve));
    this.stops.push(
      this.db.listen(
        TREE_CHANNEL,
        (payload) => {
          if (payload === hello) heard();
          else if (Number(payload) > this.replica.seq()) void this.sync();
        },
        () => void this.sync(),
      ),
    );
    await this.untilHeard(hello, listening);
    await this.replica.exclusive(() => this.replica.catchUp(this.db));
    const timer = setInterval(() => this.poll(), this.opts.pollMs ?? 5_000);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
  }

  /** LISTEN is asynchronous: says hello on the channel until this node hears it (bounded; the poll covers a miss). */
  private async untilHeard(hello: string, listening: Promise<void>): Promise<void> {
    for (let i = 0; i < 50; i++) {
      await this.db.notify(TREE_CHANNEL, hello);
      const ok = await Promise.race([listening.then(() => true), new Promise((r) => setTimeout(r, 100, false))]);
      if (ok) return;
    }
    this.logger.warn('tree notifications not heard at start; following by polling until they are');
  }

  /** Tells `listener` the paths that another node's writes changed here (kernel caches to drop: app/streaming.ts). */
  onRemoteChange(listener: (paths: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(path: string): VfsNode | undefined {
    return (this.overlay ?? this.replica.tree).get(path);
  }

  children(dir: string): VfsNode[] {
    return (this.overlay ?? this.replica.tree).children(dir);
  }

  subtree(path: string): VfsNode[] {
    return (this.overlay ?? this.replica.tree).subtree(path);
  }

  layout(id: string): FileLayout | undefined {
    return (this.overlay ?? this.replica.tree).layout(id);
  }

  writes(): number {
    return this.replica.seq();
  }

  put(node: VfsNode): void {
    this.inWrite().put(node);
  }

  delete(path: string): void {
    this.inWrite().delete(path);
  }

  putLayout(id: string, layout: FileLayout): void {
    this.inWrite().putLayout(id, layout);
  }

  deleteLayout(id: string): void {
    this.inWrite().deleteLayout(id);
  }

  write<T>(action: () => T): Promise<T> {
    return this.serially(async () => {
      const done = await this.db.tx(
        async (tx) => {
          const { head } = await this.replica.exclusive(() => this.replica.catchUp(tx));
          const overlay = new TreeOverlay(this.replica.tree);
          this.overlay = overlay;
          let value: T;
          let hooks: Array<(tx: PgTx) => Promise<unknown>>;
          try {
            value = action();
          } finally {
            this.overlay = null;
            hooks = this.commitHooks;
            this.commitHooks = [];
          }
          for (const hook of hooks) await hook(tx);
          if (overlay.empty) return { value, changes: null, seq: head, prev: head };
          const changes = packed(overlay);
          const seq = await commitChanges(tx, changes);
          this.replica.own.add(seq);
          return { value, changes, seq, prev: head };
        },
        { lock: PG_LOCKS.tree },
      );
      if (done.changes) await this.applyOwn(done.changes, done.seq, done.prev);
      return done.value;
    });
  }

  /**
   * Inside a write only: `sql` runs in the write's transaction before the tree's changes commit, so another node
   * never sees a change whose rows beside the tree (a sidecar's copy) have not landed. False outside a write.
   */
  beforeCommit(sql: (tx: PgTx) => Promise<unknown>): boolean {
    if (!this.overlay) return false;
    this.commitHooks.push(sql);
    return true;
  }

  /** Outside any write: one layout, committed on its own (with its own log row). */
  storeLayout(id: string, layout: FileLayout): Promise<void> {
    return this.commitAlone({ nodes: new Map(), layouts: new Map([[id, encodeLayout(layout)]]) });
  }

  async dropLayouts(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.commitAlone({ nodes: new Map(), layouts: new Map(ids.map((id) => [id, null])) });
  }

  /**
   * Prunes log rows older than `keepMs` beyond the newest `keepRows` (a replica older than what is left is rebuilt);
   * runs now and then from the poll. Returns the rows removed.
   */
  async pruneLog(keepRows = this.opts.keepRows ?? 10_000, keepMs = this.opts.keepMs ?? 86_400_000): Promise<number> {
    const r = await this.db.query<{ n: string }>(
      `WITH gone AS (
         DELETE FROM vfs_changes
         WHERE seq <= (SELECT coalesce(max(seq), 0) - $1 FROM vfs_changes) AND at < now() - make_interval(secs => $2)
         RETURNING seq)
       UPDATE vfs_tree_state SET pruned_through = greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM gone))
       RETURNING (SELECT count(*) FROM gone) AS n`,
      [keepRows, keepMs / 1000],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Catches up now (coalesced: one run at a time, once more if asked meanwhile). Never rejects. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.again = false;
        try {
          await this.replica.exclusive(() => this.replica.catchUp(this.db));
        } catch (err) {
          this.logger.warn('tree replica could not catch up; trying again', { error: (err as Error).message });
        }
      } while (this.again);
    })().finally(() => (this.syncing = null));
    return this.syncing;
  }

  async close(): Promise<void> {
    this.stops.forEach((stop) => stop());
    this.stops = [];
    await this.syncing;
    await this.writing;
  }

  private poll(): void {
    void this.sync();
    // About once an hour at the default poll: keep the log from growing for ever.
    if (++this.polls % 720 === 0)
      this.pruneLog().catch((err: Error) => this.logger.warn('tree log prune failed', { error: err.message }));
  }

  private inWrite(): TreeOverlay {
    if (!this.overlay) throw new Error('The tree is written only inside TreeStore.write');
    return this.overlay;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work, work);
    this.writing = run.catch(() => undefined);
    return run;
  }

  private commitAlone(changes: TreeChanges): Promise<void> {
    return this.serially(async () => {
      const { seq, prev } = await this.db.tx(
        async (tx) => {
          const { head } = await readState(tx);
          const seq = await commitChanges(tx, changes);
          this.replica.own.add(seq);
          return { seq, prev: head };
        },
        { lock: PG_LOCKS.tree },
      );
      await this.applyOwn(changes, seq, prev);
    });
  }

  /**
   * Puts a committed write of this node into the replica: directly when the replica was at the write's
   * predecessor, else by catching up (another node's write came between). A failure here is logged, not thrown:
   * the write is committed, and the next catch-up brings it.
   */
  private async applyOwn(changes: TreeChanges, seq: number, prev: number): Promise<void> {
    try {
      await this.replica.exclusive(async () => {
        const at = this.replica.seq();
        if (at === prev) await this.replica.apply(changes, seq);
        else if (at < seq) await this.replica.catchUp(this.db);
        this.replica.own.delete(seq);
      });
    } catch (err) {
      this.logger.warn('tree replica missed a committed write; it catches up later', { error: (err as Error).message });
    }
  }
}

/** The overlay's changes as stored: nodes as PostgreSQL returns them (JSON), layouts packed. */
function packed(overlay: TreeOverlay): TreeChanges {
  const nodes = new Map<string, VfsNode | null>();
  for (const [path, node] of overlay.nodes) nodes.set(path, node && (JSON.parse(JSON.stringify(node)) as VfsNode));
  const layouts = new Map<string, Uint8Array | null>();
  for (const [id, layout] of overlay.layouts) layouts.set(id, layout && encodeLayout(layout));
  return { nodes, layouts };
}

/** Writes the rows and the log row, notifies; returns the log sequence. */
async function commitChanges(tx: PgTx, changes: TreeChanges): Promise<number> {
  const puts = [...changes.nodes.values()].filter((n): n is VfsNode => n !== null);
  const deletes = [...changes.nodes].filter(([, n]) => n === null).map(([p]) => p);
  for (let i = 0; i < puts.length; i += ROWS) {
    const batch = puts.slice(i, i + ROWS);
    await tx.query(
      `INSERT INTO vfs_nodes (path, parent, name, node)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[])
       ON CONFLICT (path) DO UPDATE SET parent = EXCLUDED.parent, name = EXCLUDED.name, node = EXCLUDED.node`,
      [
        batch.map((n) => n.path),
        batch.map((n) => parentOf(n.path)),
        batch.map((n) => baseName(n.path)),
        batch.map((n) => JSON.stringify(n)),
      ],
    );
  }
  for (let i = 0; i < deletes.length; i += ROWS)
    await tx.query('DELETE FROM vfs_nodes WHERE path = ANY($1)', [deletes.slice(i, i + ROWS)]);
  for (const [id, bytes] of changes.layouts) {
    if (bytes)
      await tx.query(
        'INSERT INTO vfs_layouts (id, packed) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET packed = EXCLUDED.packed',
        [id, bytes],
      );
  }
  const dropped = [...changes.layouts].filter(([, b]) => b === null).map(([id]) => id);
  if (dropped.length) await tx.query('DELETE FROM vfs_layouts WHERE id = ANY($1)', [dropped]);
  const seq = Number(
    (
      await tx.query<{ seq: string }>('INSERT INTO vfs_changes (paths, layouts) VALUES ($1, $2) RETURNING seq', [
        [...changes.nodes.keys()],
        [...changes.layouts.keys()],
      ])
    ).rows[0]!.seq,
  );
  await tx.query('SELECT pg_notify($1, $2)', [TREE_CHANNEL, String(seq)]);
  return seq;
}

/** Rows per statement. */
const ROWS = 2_000;

/**
 * The tree of a node backed by PostgreSQL: its replica on the node's own LMDB env `local` (the `vfs` LMDB schema
 * migrated first), caught up (rebuilt from the tables on a first start), then following the log.
 */
export async function openPgTree(
  db: PgDb,
  local: Store,
  logger: Logger,
  opts: PgTreeOptions = {},
): Promise<PgTreeStore> {
  migrate(local, 'vfs', VFS_MIGRATIONS);
  const dbs = {
    nodes: openTreeNodes(local),
    layouts: local.openDb('vfs-layouts'),
    meta: local.openDb('vfs-meta'),
  };
  const tree = new PgTreeStore(db, (changed) => new TreeReplica(dbs, logger, changed), logger, opts);
  await tree.start();
  return tree;
}
