import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PATCH_FOLDER } from '../repair/repair.storage.js';
import { SIDECAR_FOLDER } from '../vfs/tree.storage.js';
import { dataFolders, STORAGE_DOMAINS } from './storage-domains.js';

test('the folders a backup carries are the storage modules’ own, under the data dir', () => {
  assert.deepEqual(dataFolders('/data'), [
    { ...SIDECAR_FOLDER, dir: '/data/sidecars' },
    { ...PATCH_FOLDER, dir: '/data/patches' },
  ]);
});

test('every storage domain has a scope of its own', () => {
  const scopes = STORAGE_DOMAINS.map((d) => d.scope);
  assert.equal(new Set(scopes).size, scopes.length, scopes.join(', '));
});
