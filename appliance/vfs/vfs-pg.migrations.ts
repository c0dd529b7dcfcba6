import type { PgMigration } from '../store/pg/index.js';

/**
 * The virtual tree's schema on PostgreSQL (scope 'tree'; tree-pg.store.ts). Nodes by path (the record as JSON,
 * text kept as written so a node reads back exactly), layouts packed as LMDB keeps them (appliance/layout/packed/),
 * and the change log every node's replica follows: one row per committed write with the paths and layout ids it
 * changed. `vfs_tree_state` is one row: the database's identity (a replica of another database is rebuilt) and
 * the highest log row pruned (a replica older than that is rebuilt too).
 */
export const VFS_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'nodes, packed layouts, the change log and the tree state',
    up: async (tx) => {
      await tx.query(`CREATE TABLE vfs_nodes (
        path text COLLATE "C" PRIMARY KEY,
        parent text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        node json NOT NULL)`);
      await tx.query('CREATE INDEX vfs_nodes_parent ON vfs_nodes (parent, name)');
      await tx.query('CREATE TABLE vfs_layouts (id text COLLATE "C" PRIMARY KEY, packed bytea NOT NULL)');
      await tx.query(`CREATE TABLE vfs_changes (
        seq bigserial PRIMARY KEY,
        paths text[] NOT NULL,
        layouts text[] NOT NULL,
        at timestamptz NOT NULL DEFAULT now())`);
      await tx.query(`CREATE TABLE vfs_tree_state (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        database_id text NOT NULL,
        pruned_through bigint NOT NULL DEFAULT 0)`);
      await tx.query('INSERT INTO vfs_tree_state (database_id) VALUES (gen_random_uuid()::text)');
      await tx.query(`CREATE TABLE vfs_sidecars (id text COLLATE "C" PRIMARY KEY, bytes bytea NOT NULL)`);
    },
  },
];
