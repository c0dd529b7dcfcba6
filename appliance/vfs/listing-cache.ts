import type { VfsNode } from './types.js';

/**
 * The listings of folders read lately, by folder path, least recently used first out, bounded by the nodes they hold
 * in all (a folder of more than the bound is never kept). A folder of 10,000 job folders lists in a copy of an
 * array instead of a range scan that decodes 10,000 records; PROPFIND Depth 1 and FUSE readdir ask the same folder
 * again and again while a media server scans. The tree store drops a folder's listing whenever a write touches it
 * (tree.store.ts). Cached nodes are frozen: a caller that changed one would change every later listing.
 */
export class ListingCache {
  private readonly lists = new Map<string, readonly VfsNode[]>();
  private held = 0;

  constructor(private readonly maxNodes: number) {}

  get(dir: string): readonly VfsNode[] | undefined {
    const list = this.lists.get(dir);
    if (list) {
      this.lists.delete(dir); // most recently used last
      this.lists.set(dir, list);
    }
    return list;
  }

  set(dir: string, nodes: VfsNode[]): void {
    this.drop(dir);
    if (nodes.length > this.maxNodes) return;
    for (const n of nodes) Object.freeze(n);
    this.lists.set(dir, nodes);
    this.held += nodes.length;
    for (const [oldest, list] of this.lists) {
      if (this.held <= this.maxNodes) break;
      this.lists.delete(oldest);
      this.held -= list.length;
    }
  }

  drop(dir: string): void {
    const list = this.lists.get(dir);
    if (!list) return;
    this.lists.delete(dir);
    this.held -= list.length;
  }
}
