import { isPlainObject, setOwn } from './normalize.js';
import type { SpoolConfig } from './schema.js';

/**
 * Keys that belong to one node and are never shared when several nodes run on one PostgreSQL (docs/configuration.md,
 * "Several nodes"): where this node finds its database and keeps its own files, the port it listens on, its mount,
 * its rclone and its logs. A whole section is named by its key alone. Everything else is the same on every node.
 */
export const NODE_LOCAL_KEYS = [
  'metadata.database_url',
  'metadata.root_path',
  'webdav.port',
  'mount_path',
  // the disk this node gives its probe cache (<data dir>/probe-cache: its own files)
  'streaming.probe_cache_size_mb',
  'rclone',
  'log',
] as const;

type Obj = Record<string, unknown>;

const split = (key: string) => key.split('.');

/** The part of a config every node shares: a deep copy without the node-local keys. */
export function sharedPart(config: SpoolConfig): Obj {
  const out = structuredClone(config) as unknown as Obj;
  for (const key of NODE_LOCAL_KEYS) {
    const [head, leaf] = split(key) as [string, string | undefined];
    if (leaf === undefined) delete out[head];
    else if (isPlainObject(out[head])) delete out[head][leaf];
  }
  return out;
}

/**
 * A shared document as this node runs it: a copy of `shared` whose node-local keys are this node's (`local`),
 * whatever the document says of them. Anything that is not a mapping comes back as is, for validation to refuse.
 */
export function withNodeLocal(shared: unknown, local: SpoolConfig): unknown {
  if (!isPlainObject(shared)) return shared;
  const out = structuredClone(shared);
  const from = local as unknown as Obj;
  for (const key of NODE_LOCAL_KEYS) {
    const [head, leaf] = split(key) as [string, string | undefined];
    if (leaf === undefined) {
      if (from[head] === undefined) delete out[head];
      else setOwn(out, head, structuredClone(from[head]));
      continue;
    }
    const value = isPlainObject(from[head]) ? from[head][leaf] : undefined;
    if (out[head] === undefined) setOwn(out, head, {});
    const section = out[head];
    if (!isPlainObject(section)) continue;
    if (value === undefined) delete section[leaf];
    else setOwn(section, leaf, value);
  }
  return out;
}
