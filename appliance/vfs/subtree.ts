import type { VfsNode } from './types.js';

/** Every node at or below `path` of a tree read through `get` and `children`, parents before children. */
export function subtreeOf(
  tree: { get(path: string): VfsNode | undefined; children(dir: string): VfsNode[] },
  path: string,
): VfsNode[] {
  const node = tree.get(path);
  if (!node) return [];
  const out: VfsNode[] = [node];
  for (let i = 0; i < out.length; i++) {
    const n = out[i] as VfsNode;
    if (n.type === 'directory') out.push(...tree.children(n.path));
  }
  return path === '/' ? out.slice(1) : out;
}
