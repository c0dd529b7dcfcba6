import { sharedStructures, type Database, type DbOptions, type Store } from '../store/index.js';
import { NODE_KEYS } from './tree-keys.store.js';
import type { ImportProbe, VfsNode } from './types.js';

/**
 * Every field a node may have, in the order its record is written (`nodeRecord`). A field added to `VfsNode` must
 * be added here too (the compiler says so, `MissingField` below): a shape with a field not listed is still stored
 * and read, but with its record definition inline, which a listing decodes more slowly.
 */
const NODE_FIELDS = [
  'path',
  'name',
  'type',
  'size',
  'createdAt',
  'modifiedAt',
  'etag',
  'layoutId',
  'segmentCount',
  'sourceNzbPath',
  'queueItemId',
  'sidecarId',
  'encryption',
  'passwordProtected',
  'probe',
  'durationSeconds',
  'deadProps',
] as const satisfies readonly (keyof VfsNode)[];

const PROBE_FIELDS = ['at', 'samplePercentage'] as const satisfies readonly (keyof ImportProbe)[];

type MissingField = Exclude<keyof VfsNode, (typeof NODE_FIELDS)[number]>;
type MissingProbeField = Exclude<keyof ImportProbe, (typeof PROBE_FIELDS)[number]>;
const allListed: [MissingField, MissingProbeField] extends [never, never] ? true : false = true;
void allListed;

const KNOWN = new Set<string>([...NODE_FIELDS, ...PROBE_FIELDS]);

/**
 * How many record definitions `vfs-nodes` shares at most. A node's shape is the set of its optional fields (a
 * folder, a file with or without a probe, a duration, a sidecar...): a few dozen in practice. Fixed for the life of
 * the data (it decides how definition ids are written): changing it needs a migration rewriting every node.
 */
const MAX_SHARED = 128;

/**
 * `vfs-nodes` shares its record definitions (store/shared-structures.ts): the key names of a node are stored once
 * per shape, not in every record, which makes a record ~40% smaller and a listing's decode faster (the cold
 * PROPFIND of a big folder is mostly this decode; docs/performance.md). Only shapes made of node and probe fields
 * are shared: dead properties (`deadProps`, keys chosen by WebDAV clients) keep their definition inline, so clients
 * cannot use up the shared list. Migration 4 ('vfs' scope, tree.migrations.ts) rewrote the nodes written before.
 * Keys are lmdb-js's own encoding, read faster (tree-keys.store.ts).
 */
export const NODES_DB_OPTIONS: DbOptions = {
  ...sharedStructures(MAX_SHARED, (keys) => keys.every((k) => KNOWN.has(k))),
  keyEncoder: NODE_KEYS,
};

/** The tree's nodes (key `[parent, name]`): every opener goes through here, so all pass the same options. */
export function openTreeNodes(store: Store): Database {
  return store.openDb('vfs-nodes', NODES_DB_OPTIONS);
}

/**
 * The node as it is written: the same fields and values, in the order of NODE_FIELDS (then any field not listed,
 * in its own order), so that a shape has one definition whatever order the node was built in (an import, a
 * spread, a row from PostgreSQL's jsonb, which orders keys its own way).
 */
export function nodeRecord(node: VfsNode): VfsNode {
  const out: Record<string, unknown> = {};
  const from = node as unknown as Record<string, unknown>;
  for (const field of NODE_FIELDS) if (Object.hasOwn(from, field)) out[field] = from[field];
  for (const key of Object.keys(from)) if (!Object.hasOwn(out, key)) out[key] = from[key];
  if (out.probe !== null && typeof out.probe === 'object') out.probe = probeRecord(out.probe as ImportProbe);
  return out as unknown as VfsNode;
}

function probeRecord(probe: ImportProbe): ImportProbe {
  const from = probe as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of PROBE_FIELDS) if (Object.hasOwn(from, field)) out[field] = from[field];
  for (const key of Object.keys(from)) if (!Object.hasOwn(out, key)) out[key] = from[key];
  return out as unknown as ImportProbe;
}
