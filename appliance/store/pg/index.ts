export { openPgDb, maskUrl, PG_LOCKS, type PgDb, type PgTx, type TxOptions, type OpenPgOptions } from './pg-db.js';
export { migratePg, sqlMigration, type PgMigration } from './pg-migrations.js';
export type { CopyReport, CopyToLmdb, CopyToPg } from './copy.js';
export { LeaderLease, type LeaderLeaseOptions, type LeaseRole } from './leader-lease.js';
export { LeaderFence, type LeaderTerm } from './leader-fence.js';
export { NoticeOutbox, MAX_NOTICE_BYTES } from './notice-outbox.js';
export { emptyCurrentSchema, firstTableWithRows } from './pg-tables.js';
export { openPgSnapshot } from './pg-snapshot.js';
