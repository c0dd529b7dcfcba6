import { isDeepStrictEqual } from 'node:util';
import { migrate, type Store } from '../store/index.js';
import type { CopyReport, CopyToLmdb, PgDb } from '../store/pg/index.js';
import { SidecarStore } from './sidecar.store.js';
import { VFS_MIGRATIONS } from './tree.migrations.js';
import { readState } from './tree-replica.store.js';
import { keyOf } from './tree.store.js';
import { nodeRecord, openTreeNodes } from './tree-nodes.store.js';
import type { VfsNode } from './types.js';

/** Rows read per query; layouts per query (their bytes kept to a few MB a round). */
const ROWS = 2_000;
const LAYOUTS = 200;

/**
 * The tree the other way (`spool migrate` into LMDB, a PostgreSQL backup's neutral copy): `vfs_nodes` and
 * `vfs_layouts` into `vfs-nodes` (key [parent, name]) and `vfs-layouts` (packed, as both backends keep them) of an
 * empty LMDB environment at this Spool's tree schema, and the tree's write count (`vfs-meta`) set to PostgreSQL's
 * log head, so the health records stay in step with the tree as they were. Then every node and layout is read
 * back from LMDB and compared with its row: nodes equal as JSON, layouts byte for byte, and the counts.
 */
export const copyTreeToLmdb: CopyToLmdb = async (from, to, progress) => {
  migrate(to, 'vfs', VFS_MIGRATIONS);
  const nodes = openTreeNodes(to);
  const layouts = to.openDb('vfs-layouts');
  const head = (await readState(from)).head;
  let nodeCount = 0;
  for await (const rows of pages<{ path: string; node: VfsNode }>(from, 'path, node', 'vfs_nodes', 'path', ROWS)) {
    to.transaction(() => rows.forEach((r) => void nodes.put(keyOf(r.path), nodeRecord(r.node))));
    nodeCount += rows.length;
  }
  progress(`tree: ${nodeCount} nodes copied`);
  let layoutCount = 0;
  let bytes = 0;
  for await (const rows of pages<{ id: string; packed: Buffer }>(from, 'id, packed', 'vfs_layouts', 'id', LAYOUTS)) {
    to.transaction(() => rows.forEach((r) => void layouts.put(r.id, r.packed)));
    layoutCount += rows.length;
    bytes += rows.reduce((n, r) => n + r.packed.length, 0);
  }
  await to.openDb('vfs-meta').put('writes', head);
  progress(`tree: ${layoutCount} layouts copied (${bytes} bytes); checking`);
  await checkTree(from, to, nodeCount, layoutCount);
  return [{ scope: 'tree', records: nodeCount + layoutCount, bytes }];
};

/**
 * The sidecars the copied tree names, from `vfs_sidecars` into the LMDB install's sidecar folder, each read back
 * from disk and compared. A sidecar the tree names but the table lacks is an error.
 */
export async function copySidecarsToLmdb(
  from: PgDb,
  sidecarDir: string,
  progress: (message: string) => void,
): Promise<CopyReport[]> {
  const ids = (
    await from.query<{ id: string }>(
      "SELECT node->>'sidecarId' AS id FROM vfs_nodes WHERE node->>'sidecarId' IS NOT NULL ORDER BY 1",
    )
  ).rows.map((r) => r.id);
  const disk = new SidecarStore(sidecarDir);
  let bytes = 0;
  for (const id of ids) {
    const row = (await from.query<{ bytes: Buffer }>('SELECT bytes FROM vfs_sidecars WHERE id = $1', [id])).rows[0];
    if (!row) throw new Error(`tree: sidecar ${id} is named by the tree but missing from vfs_sidecars`);
    await disk.write(id, row.bytes);
    if (!(await disk.read(id)).equals(row.bytes)) throw new Error(`tree: sidecar ${id} read back differs`);
    bytes += row.bytes.length;
  }
  progress(`tree: ${ids.length} sidecars copied (${bytes} bytes)`);
  return [{ scope: 'tree sidecars', records: ids.length, bytes }];
}

async function checkTree(from: PgDb, to: Store, nodeCount: number, layoutCount: number): Promise<void> {
  const nodes = openTreeNodes(to);
  const layouts = to.openDb('vfs-layouts');
  for await (const rows of pages<{ path: string; node: VfsNode }>(from, 'path, node', 'vfs_nodes', 'path', ROWS))
    for (const { path, node } of rows)
      if (!isDeepStrictEqual(nodes.get(keyOf(path)), node)) throw new Error(`tree: node ${path} read back differs`);
  for await (const rows of pages<{ id: string; packed: Buffer }>(from, 'id, packed', 'vfs_layouts', 'id', LAYOUTS))
    for (const { id, packed } of rows) {
      const back: unknown = layouts.get(id);
      if (!(back instanceof Uint8Array) || !Buffer.from(back).equals(packed))
        throw new Error(`tree: layout ${id} read back differs`);
    }
  if (nodes.getKeysCount() !== nodeCount)
    throw new Error(`tree: LMDB has ${nodes.getKeysCount()} nodes, not ${nodeCount}`);
  if (layouts.getKeysCount() !== layoutCount)
    throw new Error(`tree: LMDB has ${layouts.getKeysCount()} layouts, not ${layoutCount}`);
}

/** A table's rows in key order, `size` a page (keyset paging: no offset scans). */
async function* pages<R extends Record<string, unknown>>(
  db: PgDb,
  columns: string,
  table: string,
  key: string,
  size: number,
): AsyncGenerator<R[]> {
  for (let last = ''; ;) {
    const { rows } = await db.query<R>(`SELECT ${columns} FROM ${table} WHERE ${key} > $1 ORDER BY ${key} LIMIT $2`, [
      last,
      size,
    ]);
    if (rows.length === 0) return;
    yield rows;
    last = rows.at(-1)![key] as string;
  }
}
