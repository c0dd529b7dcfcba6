import { join } from 'node:path';
import { open } from 'lmdb';
import { keyOf } from '../../../appliance/vfs/tree.store.js';
import type { VfsNode } from '../../../appliance/vfs/types.js';

/**
 * Writes tree nodes into the store under `rootPath` as Spool wrote them before the 'vfs' migration 4: `vfs-nodes`
 * opened plainly, so each record carries its own msgpack record definition (appliance/vfs/tree-nodes.store.ts). The
 * store must not be open in this process. Values are written as given (key order, explicit undefined fields).
 * `replace` empties the database first (the shared definitions' list with it), as it was before that migration.
 */
export async function writeLegacyNodes(rootPath: string, nodes: Iterable<VfsNode>, replace = false): Promise<void> {
  const root = open({ path: join(rootPath, 'db'), maxDbs: 64 });
  try {
    const db = root.openDB({ name: 'vfs-nodes' });
    if (replace) db.clearSync();
    await db.transaction(() => {
      for (const n of nodes) void db.put(keyOf(n.path), n);
    });
  } finally {
    await root.close();
  }
}

/** The raw bytes of every `vfs-nodes` record under `rootPath` (the store must not be open in this process). */
export async function rawNodeRecords(rootPath: string): Promise<Map<string, Buffer>> {
  const root = open({ path: join(rootPath, 'db'), maxDbs: 64, readOnly: true });
  try {
    const db = root.openDB({ name: 'vfs-nodes', encoding: 'binary' });
    const out = new Map<string, Buffer>();
    for (const { key, value } of db.getRange({}))
      out.set((key as string[]).join('\u0000'), Buffer.from(value as Buffer));
    return out;
  } finally {
    await root.close();
  }
}

/** A node as one line of text that keeps what JSON drops: fields whose value is `undefined`. */
export function serializeNode(node: VfsNode): string {
  return JSON.stringify(node, (_key, value: unknown) => (value === undefined ? '\u0000undefined' : value));
}
