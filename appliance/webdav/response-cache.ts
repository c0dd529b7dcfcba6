import type { VfsNode } from '../vfs/types.js';

/**
 * The allprop `<D:response>` of a listed node as UTF-8 bytes, kept as long as the node object itself lives. The
 * tree store hands out the same frozen node objects while a folder's listing is cached (vfs/listing-cache.ts) and
 * drops the listing whenever a write touches the folder, so an entry is bounded by the listing cache and invalid
 * with it: a renamed, patched or rewritten node is a new object and misses. The folder's encoded href is kept with
 * the bytes (the same node under another mount prefix misses too). Only nodes no lock covers are cached: a lock's
 * timeout counts down, so its lockdiscovery is built fresh on every answer.
 */
const cached = new WeakMap<VfsNode, { base: string; bytes: Buffer }>();

/** The bytes kept for `node` under the folder href `base`, if any. */
export function cachedAllprop(node: VfsNode, base: string): Buffer | undefined {
  const hit = cached.get(node);
  return hit && hit.base === base ? hit.bytes : undefined;
}

export function keepAllprop(node: VfsNode, base: string, bytes: Buffer): void {
  cached.set(node, { base, bytes });
}
