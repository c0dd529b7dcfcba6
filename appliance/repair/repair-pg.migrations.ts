import type { PgMigration } from '../store/pg/index.js';

/**
 * The repair domain's tables on PostgreSQL (scope 'repair'; docs/health.md "PAR2 repair"):
 * - `repair_patch_blobs`: one row per blob (the rebuilt bytes of one repair of one file), pending until its patch
 *   commits; `touched_at` is when its writer last wrote, so a blob a crashed node left pending is swept later.
 * - `repair_patch_chunks`: a blob's bytes, in rows of at most 1 MiB at blob offset `off`, in the order written
 *   (`n`: where two rows overlap, the later one's bytes are read).
 * - `repair_patches`: the index, one row per file (key: its layout id), the `FilePatches` record as columns.
 * - `repair_par2_sets` / `repair_par2_files`: the kept PAR2 files of each queue item, layouts in the packed form
 *   (appliance/layout/packed/).
 */
export const REPAIR_PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    description: 'patch blobs in chunks, the patch index, kept PAR2 files',
    async up(tx) {
      await tx.query(`
        CREATE TABLE repair_patch_blobs (
          blob text PRIMARY KEY,
          committed boolean NOT NULL DEFAULT false,
          touched_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX repair_patch_blobs_pending ON repair_patch_blobs (touched_at) WHERE NOT committed;
        CREATE TABLE repair_patch_chunks (
          blob text NOT NULL REFERENCES repair_patch_blobs (blob) ON DELETE CASCADE,
          n bigserial NOT NULL,
          off bigint NOT NULL CHECK (off >= 0),
          data bytea NOT NULL CHECK (length(data) BETWEEN 1 AND 1048576),
          PRIMARY KEY (blob, n)
        );
        ALTER TABLE repair_patch_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
        CREATE TABLE repair_patches (
          layout_id text PRIMARY KEY,
          path text NOT NULL,
          ranges json NOT NULL,
          bytes bigint NOT NULL,
          at bigint NOT NULL
        );
        CREATE INDEX repair_patches_path ON repair_patches (path text_pattern_ops);
        CREATE TABLE repair_par2_sets (queue_item_id bigint PRIMARY KEY);
        CREATE TABLE repair_par2_files (
          queue_item_id bigint NOT NULL REFERENCES repair_par2_sets (queue_item_id) ON DELETE CASCADE,
          idx integer NOT NULL,
          name text NOT NULL,
          size bigint NOT NULL,
          volume boolean,
          layout bytea NOT NULL,
          PRIMARY KEY (queue_item_id, idx)
        );
      `);
    },
  },
];
