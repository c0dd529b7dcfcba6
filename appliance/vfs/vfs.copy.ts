import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { decodeLayout, encodeLayout, isPackedLayout } from '../layout/index.js';
import { createLogger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { CopyReport, CopyToPg, PgDb } from '../store/pg/index.js';
import { baseName, parentOf } from './path.js';
import { PgSidecarStore } from './sidecar-pg.store.js';
import { SidecarStore } from './sidecar.store.js';
import { upgradeLayout } from './tree.migrations.js';
import { openTreeNodes } from './tree-nodes.store.js';
import type { FileLayout, VfsNode } from './types.js';

/** Rows per INSERT, and layout bytes per INSERT. */
const ROWS = 2_000;
const BYTES = 8 << 20;

/**
 * Copies the tree of an LMDB install (`vfs-nodes`, `vfs-layouts`) into PostgreSQL's tables (vfs-pg.migrations.ts)
 * for `spool migrate`, layouts packed as LMDB keeps them (older shapes packed on the way), then reads every row back
 * and compares it with LMDB: each node equal as JSON, each layout equal byte for byte (decoded, where LMDB held an
 * older shape). Every node's replica is then built from these tables on its first start (tree-replica.store.ts).
 */
export const copyTreeToPg: CopyToPg = async (from: Store, to: PgDb, progress) => {
  const nodesDb = openTreeNodes(from);
  const layoutsDb = from.openDb('vfs-layouts');
  const nodes: VfsNode[] = [];
  for (const { value } of nodesDb.getRange({})) {
    nodes.push(value as VfsNode);
    if (nodes.length === ROWS) await insertNodes(to, nodes.splice(0));
  }
  await insertNodes(to, nodes);
  const nodeCount = nodesDb.getKeysCount();
  progress(`tree: ${nodeCount} nodes copied`);
  let batch: [string, Uint8Array][] = [];
  let bytes = 0;
  let batchBytes = 0;
  for (const { key, value } of layoutsDb.getRange({})) {
    const packed = packedOf(value);
    batch.push([String(key), packed]);
    bytes += packed.length;
    batchBytes += packed.length;
    if (batch.length === ROWS || batchBytes > BYTES) {
      await insertLayouts(to, batch);
      batch = [];
      batchBytes = 0;
    }
  }
  await insertLayouts(to, batch);
  const layoutCount = layoutsDb.getKeysCount();
  progress(`tree: ${layoutCount} layouts copied (${bytes} bytes); checking`);
  await checkNodes(to, nodesDb, nodeCount);
  await checkLayouts(to, layoutsDb, layoutCount);
  return [{ scope: 'tree', records: nodeCount + layoutCount, bytes }];
};

/**
 * Copies the sidecars the copied tree names from the install's sidecar folder (`<data dir>/sidecars`) into
 * PostgreSQL, then reads each back and compares. A sidecar the tree names but the folder lacks is an error.
 */
export async function copySidecarsToPg(
  from: Store,
  sidecarDir: string,
  to: PgDb,
  progress: (message: string) => void,
): Promise<CopyReport[]> {
  const ids = [...openTreeNodes(from).getRange({})]
    .map(({ value }) => (value as VfsNode).sidecarId)
    .filter((id): id is string => id !== undefined);
  if (ids.length === 0) return [{ scope: 'tree sidecars', records: 0, bytes: 0 }];
  if (!existsSync(sidecarDir)) throw new Error(`tree: the sidecar folder ${sidecarDir} is missing`);
  const disk = new SidecarStore(sidecarDir);
  const pg = new PgSidecarStore(to, createLogger('migrate', 'error', progress));
  let bytes = 0;
  for (const id of ids) {
    const data = await disk.read(id);
    await pg.write(id, data);
    if (!(await pg.read(id)).equals(data)) throw new Error(`tree: sidecar ${id} read back differs`);
    bytes += data.length;
  }
  progress(`tree: ${ids.length} sidecars copied (${bytes} bytes)`);
  return [{ scope: 'tree sidecars', records: ids.length, bytes }];
}

function packedOf(value: unknown): Uint8Array {
  return isPackedLayout(value) ? value : encodeLayout(upgraded(value));
}

/** A layout LMDB holds in an older shape (before the 'vfs' LMDB migrations 2 and 3), in today's. */
function upgraded(value: unknown): FileLayout {
  const layout = value as FileLayout & { size?: number };
  return typeof layout.size === 'number' ? layout : upgradeLayout(layout as Parameters<typeof upgradeLayout>[0]);
}

async function insertNodes(db: PgDb, nodes: VfsNode[]): Promise<void> {
  if (nodes.length === 0) return;
  await db.query(
    `INSERT INTO vfs_nodes (path, parent, name, node)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[])`,
    [
      nodes.map((n) => n.path),
      nodes.map((n) => parentOf(n.path)),
      nodes.map((n) => baseName(n.path)),
      nodes.map((n) => JSON.stringify(n)),
    ],
  );
}

async function insertLayouts(db: PgDb, layouts: [string, Uint8Array][]): Promise<void> {
  if (layouts.length === 0) return;
  await db.query('INSERT INTO vfs_layouts (id, packed) SELECT * FROM unnest($1::text[], $2::bytea[])', [
    layouts.map(([id]) => id),
    layouts.map(([, b]) => b),
  ]);
}

async function checkNodes(db: PgDb, nodesDb: ReturnType<Store['openDb']>, count: number): Promise<void> {
  let seen = 0;
  for (let last = ''; ;) {
    const rows = (
      await db.query<{ path: string; node: VfsNode }>(
        'SELECT path, node FROM vfs_nodes WHERE path > $1 ORDER BY path LIMIT $2',
        [last, ROWS * 5],
      )
    ).rows;
    if (rows.length === 0) break;
    for (const { path, node } of rows) {
      const lmdb = nodesDb.get([parentOf(path), baseName(path)]) as VfsNode | undefined;
      if (!lmdb || !isDeepStrictEqual(JSON.parse(JSON.stringify(lmdb)), node))
        throw new Error(`tree: node ${path} read back differs from LMDB`);
    }
    seen += rows.length;
    last = rows.at(-1)!.path;
  }
  if (seen !== count) throw new Error(`tree: ${seen} nodes read back, LMDB has ${count}`);
}

async function checkLayouts(db: PgDb, layoutsDb: ReturnType<Store['openDb']>, count: number): Promise<void> {
  let seen = 0;
  for (let last = ''; ;) {
    const ids = (
      await db.query<{ id: string }>('SELECT id FROM vfs_layouts WHERE id > $1 ORDER BY id LIMIT $2', [last, ROWS])
    ).rows.map((r) => r.id);
    if (ids.length === 0) break;
    const rows = (
      await db.query<{ id: string; packed: Buffer }>('SELECT id, packed FROM vfs_layouts WHERE id = ANY($1)', [ids])
    ).rows;
    for (const { id, packed } of rows) {
      const raw: unknown = layoutsDb.get(id);
      const same = isPackedLayout(raw)
        ? Buffer.from(raw).equals(packed)
        : isDeepStrictEqual(decodeLayout(packed), upgraded(raw));
      if (!same) throw new Error(`tree: layout ${id} read back differs from LMDB`);
    }
    seen += rows.length;
    last = ids.at(-1)!;
  }
  if (seen !== count) throw new Error(`tree: ${seen} layouts read back, LMDB has ${count}`);
}
