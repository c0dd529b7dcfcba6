import { encodeLayout, isPackedLayout } from '../layout/index.js';
import { reconcileSharedStructures, type Migration, type Store } from '../store/index.js';
import type { FileLayout, VfsNode } from './types.js';
import { nodeRecord, openTreeNodes } from './tree-nodes.store.js';
import { keyOf } from './tree.store.js';

/** Schema steps of the virtual tree ('vfs' scope in the store). */
export const VFS_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'tree keys as [parent, name] arrays instead of "parent NUL name" strings',
    up: (store) => {
      const nodes = openTreeNodes(store);
      const old = [...nodes.getRange({})].filter(({ key }) => typeof key === 'string');
      for (const { key, value } of old) {
        void nodes.put(keyOf((value as VfsNode).path), nodeRecord(value as VfsNode));
        void nodes.remove(key);
      }
    },
  },
  {
    version: 2,
    description: 'layouts in the one model of appliance/layout: size, per-segment NZB facts and posts (was `nzb`)',
    up: (store) => {
      const layouts = store.openDb('vfs-layouts');
      for (const { key, value } of [...layouts.getRange({})]) {
        const old = value as LegacyLayout;
        if (typeof old.size === 'number') continue;
        void layouts.put(key, upgradeLayout(old));
      }
    },
  },
  {
    version: 3,
    description: 'layouts stored packed (columns, message-ids against their template) instead of msgpack objects',
    up: (store) => packLayouts(store),
  },
  {
    version: 4,
    description: 'nodes rewritten with shared record definitions (key names stored once per shape, not per record)',
    batch: (store, after) => restructureNodes(store, after),
  },
];

/** Nodes rewritten per transaction by migration 4 (a store of 100,000 files is never held in one). */
export const NODES_PER_BATCH = 2_000;

/**
 * One piece of migration 4: reads the next NODES_PER_BATCH nodes after the key `after` (as they were written,
 * each record carrying its own definition, or already rewritten: both decode through `openTreeNodes`) and writes
 * each back the same, which stores it with a shared definition. Returns the last key rewritten, or null when the
 * nodes ran out. A piece done twice writes the same records again. `onEach` lets a test stop the process mid-way.
 */
export function restructureNodes(store: Store, after: unknown, onEach?: (done: number) => void): unknown {
  const nodes = openTreeNodes(store);
  reconcileSharedStructures(nodes);
  const start = after === undefined ? {} : { start: after as string[], exclusiveStart: true };
  const batch = [...nodes.getRange({ ...start, limit: NODES_PER_BATCH })];
  batch.forEach(({ key, value }, i) => {
    void nodes.put(key, nodeRecord(value as VfsNode));
    onEach?.(i + 1);
  });
  return batch.length < NODES_PER_BATCH ? null : batch.at(-1)!.key;
}

/**
 * Rewrites every layout not yet packed. Runs inside the migration's one transaction, so a crash leaves the old
 * records as they were (and the version at 2) and the next start does it all again; records already packed are
 * skipped, and the tree store reads both forms, so a half-done store would read right too. Keys are collected
 * first and each record read alone, so a store of 100,000 files is never held in memory at once.
 * `onEach` lets a test stop the process mid-way.
 */
export function packLayouts(store: Store, onEach?: (done: number) => void): number {
  const layouts = store.openDb('vfs-layouts');
  let done = 0;
  for (const key of [...layouts.getKeys({})]) {
    const value: unknown = layouts.get(key);
    if (value === undefined || isPackedLayout(value)) continue;
    void layouts.put(key, encodeLayout(value as FileLayout));
    onEach?.(++done);
  }
  return done;
}

/** The stored shape before version 2: whole articles only, export facts in a side record. */
interface LegacyLayout {
  size?: number;
  segments: { messageId: string; start: number; end: number }[];
  groups?: string[];
  nzb?: { poster: string; date: number; subject: string; numbers?: number[]; encodedBytes?: number[] };
}

export function upgradeLayout(old: LegacyLayout): FileLayout {
  const nzb = old.nzb;
  const segments = old.segments.map((s, i) => ({
    messageId: s.messageId,
    start: s.start,
    end: s.end,
    ...(nzb?.numbers?.[i] !== undefined ? { number: nzb.numbers[i] } : {}),
    ...(nzb?.encodedBytes?.[i] !== undefined ? { bytes: nzb.encodedBytes[i] } : {}),
    ...(nzb ? { post: 0 } : {}),
  }));
  const posts = nzb ? [{ poster: nzb.poster, date: nzb.date, subject: nzb.subject, groups: old.groups ?? [] }] : [];
  return {
    size: old.segments.at(-1)?.end ?? 0,
    segments,
    ...(old.groups ? { groups: old.groups } : {}),
    ...(posts.length ? { posts } : {}),
  };
}
