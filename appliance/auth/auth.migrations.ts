import type { Migration } from '../store/index.js';

/** The auth domain's LMDB schema steps (store/migrations.ts). */
export const AUTH_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'users, user_index and sessions databases',
    up: (store) => {
      store.openDb('users');
      store.openDb('user_index');
      store.openDb('sessions');
    },
  },
  {
    version: 2,
    description: 'named API keys (api_keys) and their lookup by the hash of the secret (api_key_hashes)',
    up: (store) => {
      store.openDb('api_keys');
      store.openDb('api_key_hashes');
    },
  },
];
