import type { Migration } from '../store/index.js';
import type { FileLayout, VfsNode } from './types.js';
import { keyOf } from './tree.store.js';

/** Schema steps of the virtual tree ('vfs' scope in the store). */
export const VFS_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'tree keys as [parent, name] arrays instead of "parent NUL name" strings',
    up: (store) => {
      const nodes = store.openDb('vfs-nodes');
      const old = [...nodes.getRange({})].filter(({ key }) => typeof key === 'string');
      for (const { key, value } of old) {
        void nodes.put(keyOf((value as VfsNode).path), value);
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
];

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
