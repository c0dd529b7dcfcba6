import type { VfsNode } from '../vfs/types.js';

/**
 * The allprop `<D:response>` of a listed node, kept as long as the node object itself lives. The tree store hands
 * out the same frozen node objects while a folder's listing is cached (vfs/listing-cache.ts) and drops the listing
 * whenever a write touches the folder, so an entry is bounded by the listing cache and invalid with it: a renamed,
 * patched or rewritten node is a new object and misses. The folder's encoded href is kept with the text (the same
 * node under another mount prefix misses too). Only nodes no lock covers are cached: a lock's timeout counts down,
 * so its lockdiscovery is built fresh on every answer. Kept as the string it was built as (flat once the answer
 * has encoded it), so a cold listing makes no Buffer per entry: the answer is encoded once (utf8-writer.ts).
 */
const cached = new WeakMap<VfsNode, { base: string; xml: string }>();

/** The text kept for `node` under the folder href `base`, if any. */
export function cachedAllprop(node: VfsNode, base: string): string | undefined {
  const hit = cached.get(node);
  return hit && hit.base === base ? hit.xml : undefined;
}

export function keepAllprop(node: VfsNode, base: string, xml: string): void {
  cached.set(node, { base, xml });
}
