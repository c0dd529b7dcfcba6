import type { Par2FileStore, PatchStore } from '../../repair/index.js';
import { notBuiltYet, type PgSlot } from './slot.js';

/**
 * SLOT repair (PAR2 patches: blobs in PostgreSQL, the index in memory, reads cached on local disk; the kept PAR2
 * files). To fill: scope 'repair', migrations REPAIR_PG_MIGRATIONS (repair/repair-pg.migrations.ts), open: both
 * stores.
 */
export const repairPg: PgSlot<{ patches: PatchStore; par2Files: Par2FileStore }> = notBuiltYet(
  'repair',
  'PAR2 repairs',
);
