import { parentOf } from './path.js';
import type { FileLayout, VfsNode } from './types.js';
import { subtreeOf } from './subtree.js';

/** The reads of the tree a write reads through (the node's replica, tree-pg.store.ts). */
export interface TreeReads {
  get(path: string): VfsNode | undefined;
  children(dir: string): VfsNode[];
  layout(id: string): FileLayout | undefined;
}

/**
 * The changes of one write of the PostgreSQL tree while its action runs (tree-pg.store.ts): the nodes and layouts it
 * put (`null`: deleted), over the replica it reads from, so the action reads its own writes before anything is
 * committed. Nothing here reaches the replica; the store writes the changes to PostgreSQL, then to the replica.
 */
export class TreeOverlay {
  readonly nodes = new Map<string, VfsNode | null>();
  readonly layouts = new Map<string, FileLayout | null>();
  /** The paths of `nodes` by their folder, so a listing finds the folder's changes without a scan of them all. */
  private readonly byParent = new Map<string, Set<string>>();

  constructor(private readonly base: TreeReads) {}

  get empty(): boolean {
    return this.nodes.size === 0 && this.layouts.size === 0;
  }

  get(path: string): VfsNode | undefined {
    const mine = path === '/' ? undefined : this.nodes.get(path);
    return mine === undefined ? this.base.get(path) : (mine ?? undefined);
  }

  children(dir: string): VfsNode[] {
    const changed = this.byParent.get(dir);
    if (!changed) return this.base.children(dir);
    const out = this.base.children(dir).filter((n) => !changed.has(n.path));
    for (const path of changed) {
      const node = this.nodes.get(path);
      if (node) out.push(node);
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  subtree(path: string): VfsNode[] {
    return subtreeOf(this, path);
  }

  layout(id: string): FileLayout | undefined {
    const mine = this.layouts.get(id);
    return mine === undefined ? this.base.layout(id) : (mine ?? undefined);
  }

  put(node: VfsNode): void {
    this.set(node.path, node);
  }

  delete(path: string): void {
    this.set(path, null);
  }

  putLayout(id: string, layout: FileLayout): void {
    this.layouts.set(id, layout);
  }

  deleteLayout(id: string): void {
    this.layouts.set(id, null);
  }

  private set(path: string, node: VfsNode | null): void {
    this.nodes.set(path, node);
    const dir = parentOf(path);
    let paths = this.byParent.get(dir);
    if (!paths) this.byParent.set(dir, (paths = new Set()));
    paths.add(path);
  }
}
