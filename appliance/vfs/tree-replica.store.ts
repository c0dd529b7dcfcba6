import type { Database } from 'lmdb';
import type { Logger } from '../logging/logger.js';
import type { PgTx } from '../store/pg/index.js';
import { isDeepStrictEqual } from 'node:util';
import { keyOf, LmdbTreeStore } from './tree.store.js';
import type { VfsNode } from './types.js';

/** What one or more committed writes changed: the new record of each path and layout id, `null` where deleted. */
export interface TreeChanges {
  nodes: Map<string, VfsNode | null>;
  /** Packed (appliance/layout/packed/), as both PostgreSQL and LMDB keep them. */
  layouts: Map<string, Uint8Array | null>;
}

/** The tree's row in PostgreSQL that says which database this is and how much of the log is gone. */
export interface TreeState {
  databaseId: string;
  prunedThrough: number;
  /** The newest write's sequence (0: none yet), whether its log row is kept or pruned. */
  head: number;
}

/** The local LMDB databases of a replica (`vfs-nodes`, `vfs-layouts`, `vfs-meta` of the node's own env). */
export interface ReplicaDatabases {
  nodes: Database;
  layouts: Database;
  meta: Database;
}

/** Paths a rebuild announces one by one at most (kernel cache dropped per path); past that, the root only. */
const MAX_ANNOUNCED = 10_000;
/** Log rows read per round of a catch-up, and keys fetched per query. */
const LOG_BATCH = 500;
const KEY_BATCH = 2_000;
/** Layout bytes fetched per query in a rebuild (a few MB, so a library of big files never comes in at once). */
const LAYOUT_BYTES_BATCH = 8 << 20;

/**
 * A node's copy of the tree PostgreSQL holds (tree-pg.store.ts): an `LmdbTreeStore` on the node's own LMDB env,
 * which serves every read, plus the log sequence it has applied (`pg-seq`) and the identity of the database it
 * copies (`pg-database`) in `vfs-meta`. Every change reaches it through `LmdbTreeStore.write`, so its listing and
 * layout caches stay right. Changes are applied one batch at a time (`exclusive`), never two at once.
 */
export class TreeReplica {
  readonly tree: LmdbTreeStore;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Log sequences of this node's own writes not yet applied here (noted before their commit): a catch-up that
   * brings one does not announce its paths as another node's changes.
   */
  readonly own = new Set<number>();

  constructor(
    private readonly dbs: ReplicaDatabases,
    private readonly logger: Logger,
    /** Told of the paths a batch from another node (or a rebuild) changed, once applied. */
    private readonly changed: (paths: string[]) => void,
  ) {
    this.tree = new LmdbTreeStore(dbs);
  }

  /** The log sequence applied here: every write up to it is in the replica. */
  seq(): number {
    return (this.dbs.meta.get(SEQ) as number | undefined) ?? 0;
  }

  /** Runs `work` once every change queued before it was applied, alone. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies changes as one LMDB write and records `seq` (call inside `exclusive`). */
  async apply(changes: TreeChanges, seq: number): Promise<void> {
    await this.tree.write(() => {
      for (const [path, node] of changes.nodes) {
        if (node) this.tree.put(node);
        else this.tree.delete(path);
      }
      for (const [id, packed] of changes.layouts) {
        if (packed) this.tree.putPackedLayout(id, packed);
        else this.tree.deleteLayout(id);
      }
      void this.dbs.meta.put(SEQ, seq);
    });
  }

  /**
   * Brings the replica up to the log (call inside `exclusive`): the changed keys of every row after `seq()`, their
   * current records fetched and applied. A replica of another database, behind the pruned log or ahead of it (a
   * database restored from an older backup) is rebuilt instead. Returns the state, whose `head` the replica has
   * reached if no write committed meanwhile (always, under the tree lock).
   */
  async catchUp(q: PgTx): Promise<TreeState> {
    for (;;) {
      const from = this.seq();
      const rows = (
        await q.query<{ seq: string; paths: string[]; layouts: string[] }>(
          'SELECT seq, paths, layouts FROM vfs_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
          [from, LOG_BATCH],
        )
      ).rows;
      // Read after the rows: a prune that removed rows we did not get shows here.
      const state = await readState(q);
      if (this.dbs.meta.get(DATABASE) !== state.databaseId || from < state.prunedThrough || from > state.head) {
        await this.rebuild(q, state);
        continue;
      }
      if (rows.length === 0) return state;
      const paths = new Set(rows.flatMap((r) => r.paths));
      const layouts = new Set(rows.flatMap((r) => r.layouts));
      const changes = await fetchCurrent(q, [...paths], [...layouts]);
      await this.apply(changes, Number(rows.at(-1)!.seq));
      const others = rows.filter((r) => !this.own.delete(Number(r.seq)));
      if (others.length) this.changed([...new Set(others.flatMap((r) => r.paths))]);
      if (rows.length < LOG_BATCH) return { ...state, head: Math.max(state.head, this.seq()) };
    }
  }

  /**
   * Makes the replica equal to the tables, in batches by key range, without ever emptying it first (a node that
   * fell behind keeps serving its old view until each batch lands): every node upserted, every layout missing or
   * of another length fetched, then what the tables no longer hold deleted. Layout ids are never reused for other
   * bytes (VfsService names each new layout by a random UUID), so a layout already here is not fetched again.
   * Ends at the log head read before it started; the catch-up after it applies whatever committed meanwhile.
   */
  private async rebuild(q: PgTx, state: TreeState): Promise<void> {
    const started = Date.now();
    const local = this.dbs.meta.get(DATABASE);
    if (local === undefined && this.dbs.nodes.getKeysCount() > 0) {
      const n = Number((await q.query<{ n: string }>('SELECT count(*) AS n FROM vfs_nodes')).rows[0]?.n ?? 0);
      if (n === 0)
        throw new Error(
          "This node's LMDB tree is not in PostgreSQL (its database is empty): copy it with `spool migrate` first, or move the node's db directory away to start empty",
        );
    }
    if (local !== state.databaseId) await this.tree.write(() => void this.dbs.meta.remove(DATABASE));
    const { count: paths, changed } = await this.rebuildNodes(q);
    const ids = await this.rebuildLayouts(q);
    await this.tree.write(() => {
      void this.dbs.meta.put(DATABASE, state.databaseId);
      void this.dbs.meta.put(SEQ, state.head);
    });
    this.logger.info('tree replica rebuilt from PostgreSQL', {
      nodes: paths,
      layouts: ids,
      seq: state.head,
      ms: Date.now() - started,
    });
    this.changed(changed.length > MAX_ANNOUNCED ? ['/'] : changed);
  }

  /** Upserts every node that differs, deletes what the tables lack; returns the count and the paths changed. */
  private async rebuildNodes(q: PgTx): Promise<{ count: number; changed: string[] }> {
    const seen = new Set<string>();
    const changed: string[] = [];
    for (let last = ''; ;) {
      const rows = (
        await q.query<{ path: string; node: VfsNode }>(
          'SELECT path, node FROM vfs_nodes WHERE path > $1 ORDER BY path LIMIT $2',
          [last, KEY_BATCH * 5],
        )
      ).rows;
      if (rows.length === 0) break;
      const differ = rows.filter((r) => !isDeepStrictEqual(this.dbs.nodes.get(keyOf(r.path)), r.node));
      if (differ.length) await this.tree.write(() => differ.forEach((r) => this.tree.put(r.node)));
      differ.forEach((r) => changed.length <= MAX_ANNOUNCED && changed.push(r.path));
      rows.forEach((r) => seen.add(r.path));
      last = rows.at(-1)!.path;
    }
    const gone: string[] = [];
    for (const { value } of this.dbs.nodes.getRange({})) {
      const path = (value as VfsNode).path;
      if (!seen.has(path)) gone.push(path);
    }
    for (let i = 0; i < gone.length; i += KEY_BATCH)
      await this.tree.write(() => gone.slice(i, i + KEY_BATCH).forEach((p) => this.tree.delete(p)));
    changed.push(...gone.slice(0, MAX_ANNOUNCED + 1 - changed.length));
    return { count: seen.size, changed };
  }

  private async rebuildLayouts(q: PgTx): Promise<number> {
    if (this.dbs.layouts.getKeysCount() === 0) return this.copyLayouts(q);
    const seen = new Set<string>();
    for (let last = ''; ;) {
      const rows = (
        await q.query<{ id: string; size: number }>(
          'SELECT id, octet_length(packed) AS size FROM vfs_layouts WHERE id > $1 ORDER BY id LIMIT $2',
          [last, KEY_BATCH * 5],
        )
      ).rows;
      if (rows.length === 0) break;
      rows.forEach((r) => seen.add(r.id));
      last = rows.at(-1)!.id;
      const wanted = rows.filter((r) => (this.dbs.layouts.get(r.id) as Uint8Array | undefined)?.length !== r.size);
      for (let i = 0; i < wanted.length;) {
        const batch: string[] = [];
        for (let bytes = 0; i < wanted.length && (batch.length === 0 || bytes < LAYOUT_BYTES_BATCH); i++) {
          batch.push(wanted[i]!.id);
          bytes += wanted[i]!.size;
        }
        const got = await q.query<{ id: string; packed: Buffer }>(
          'SELECT id, packed FROM vfs_layouts WHERE id = ANY($1)',
          [batch],
        );
        await this.tree.write(() => got.rows.forEach((r) => this.tree.putPackedLayout(r.id, r.packed)));
      }
    }
    const gone = [...this.dbs.layouts.getKeys({})].filter((id) => !seen.has(id as string)) as string[];
    for (let i = 0; i < gone.length; i += KEY_BATCH)
      await this.tree.write(() => gone.slice(i, i + KEY_BATCH).forEach((id) => this.tree.deleteLayout(id)));
    return seen.size;
  }

  /** A replica without layouts (a first start) takes them all, page by page (the quickest way: no key lists). */
  private async copyLayouts(q: PgTx): Promise<number> {
    let n = 0;
    for (let last = ''; ;) {
      const rows = (
        await q.query<{ id: string; packed: Buffer }>(
          'SELECT id, packed FROM vfs_layouts WHERE id > $1 ORDER BY id LIMIT $2',
          [last, KEY_BATCH / 2],
        )
      ).rows;
      if (rows.length === 0) return n;
      await this.tree.write(() => rows.forEach((r) => this.tree.putPackedLayout(r.id, r.packed)));
      n += rows.length;
      last = rows.at(-1)!.id;
    }
  }
}

export async function readState(q: PgTx): Promise<TreeState> {
  const row = (
    await q.query<{ database_id: string; pruned_through: string; head: string }>(
      `SELECT database_id, pruned_through,
              greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM vfs_changes)) AS head
       FROM vfs_tree_state`,
    )
  ).rows[0];
  if (!row) throw new Error('The tree has no state row in PostgreSQL (vfs_tree_state): was the schema migrated?');
  return { databaseId: row.database_id, prunedThrough: Number(row.pruned_through), head: Number(row.head) };
}

/** The current records of the given paths and layout ids (absent ones as `null`: deleted since). */
async function fetchCurrent(q: PgTx, paths: string[], ids: string[]): Promise<TreeChanges> {
  const changes: TreeChanges = { nodes: new Map(), layouts: new Map() };
  for (let i = 0; i < paths.length; i += KEY_BATCH) {
    const batch = paths.slice(i, i + KEY_BATCH);
    batch.forEach((p) => changes.nodes.set(p, null));
    const got = await q.query<{ path: string; node: VfsNode }>(
      'SELECT path, node FROM vfs_nodes WHERE path = ANY($1)',
      [batch],
    );
    got.rows.forEach((r) => changes.nodes.set(r.path, r.node));
  }
  for (let i = 0; i < ids.length; i += KEY_BATCH / 10) {
    const batch = ids.slice(i, i + KEY_BATCH / 10);
    batch.forEach((id) => changes.layouts.set(id, null));
    const got = await q.query<{ id: string; packed: Buffer }>('SELECT id, packed FROM vfs_layouts WHERE id = ANY($1)', [
      batch,
    ]);
    got.rows.forEach((r) => changes.layouts.set(r.id, r.packed));
  }
  return changes;
}

/** `vfs-meta` keys of the replica: the log sequence applied, and the PostgreSQL database it copies. */
const SEQ = 'pg-seq';
const DATABASE = 'pg-database';
