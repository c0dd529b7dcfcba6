import type { Migration } from '../store/index.js';
import type { VfsNode } from './types.js';
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
];
