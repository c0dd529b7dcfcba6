import type { VfsNode } from '../vfs/types.js';

/**
 * The allprop `<D:response>` of a listed node, kept as long as the node object itself lives: where its UTF-8 bytes
 * lie in the answer it was last sent in (`answer[start, end)`). The tree store hands out the same frozen node
 * objects while a folder's listing is cached (vfs/listing-cache.ts) and drops the listing whenever a write touches
 * the folder, so an entry is bounded by the listing cache and invalid with it: a renamed, patched or rewritten node
 * is a new object and misses. The folder's encoded href is kept with it (the same node under another mount prefix
 * misses too). Only nodes no lock covers are kept: a lock's timeout counts down, so its lockdiscovery is built fresh
 * on every answer (`forgetAllprop` when one covers the node).
 *
 * Kept as bytes of the answer, not as strings: the 10,000 strings of a cold listing die young (a string kept on the
 * V8 heap was copied by every young-generation collection until it was promoted, ~9 MB of them), and an answer
 * asked again copies ranges of the last one instead of encoding anything. An answer that built any entry anew
 * keeps every entry of it (`keepAnswer`), so all the nodes of a listing point into one answer and an older answer
 * is freed with its last node: a folder holds at most one answer's bytes (~9 MB for 10,000 entries, off the heap).
 */
export interface KeptEntry {
  base: string;
  answer: Buffer;
  start: number;
  end: number;
}

const kept = new WeakMap<VfsNode, KeptEntry>();

/** Where the bytes kept for `node` under the folder href `base` lie, if any. */
export function keptAllprop(node: VfsNode, base: string): KeptEntry | undefined {
  const hit = kept.get(node);
  return hit && hit.base === base ? hit : undefined;
}

export function forgetAllprop(node: VfsNode): void {
  kept.delete(node);
}

/**
 * The allprop entries written into one answer, node by node with their byte ranges in it (`seal` names the Buffer
 * they lie in once it is final: the writer may still move them while it grows). `keepAnswer` keeps them once the
 * answer is whole: every one of them when any was built anew, none when all came from kept bytes.
 */
export class AnswerEntries {
  /** Entries added since the last seal: `pending[i]` lies at `ranges[2i]` to `ranges[2i + 1]`. */
  private readonly pending: VfsNode[] = [];
  private readonly ranges: number[] = [];
  private readonly sealed: KeptEntry[] = [];
  private readonly nodes: VfsNode[] = [];
  private built = false;

  constructor(private readonly base: string) {}

  add(node: VfsNode, start: number, end: number, builtNow: boolean): void {
    this.pending.push(node);
    this.ranges.push(start, end);
    if (builtNow) this.built = true;
  }

  /** The entries added since the last seal lie in `piece`, which is final (never written again). */
  seal(piece: Buffer): void {
    for (let i = 0; i < this.pending.length; i++) {
      this.nodes.push(this.pending[i] as VfsNode);
      const [start, end] = [this.ranges[2 * i] as number, this.ranges[2 * i + 1] as number];
      this.sealed.push({ base: this.base, answer: piece, start, end });
    }
    this.pending.length = 0;
    this.ranges.length = 0;
  }

  keepAnswer(): void {
    if (!this.built) return;
    for (let i = 0; i < this.nodes.length; i++) kept.set(this.nodes[i] as VfsNode, this.sealed[i] as KeptEntry);
  }
}
