import { AppError } from './app-error.js';

/**
 * Whether an error is the disk refusing a write: a filesystem ENOSPC (sidecars, the config file), or LMDB's
 * commit failing for want of space (lmdb-js reports "No space left on device: Attempting to write page ...",
 * without an errno code), or EDQUOT (a quota). Nothing is half-written in either case: LMDB rolls the
 * transaction back, and files are written to a temporary name first.
 */
export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return /no space left on device|disk quota exceeded|MDB_MAP_FULL/i.test(err.message);
}

export const DISK_FULL_MESSAGE =
  'Disk full: the data directory has no space left, so nothing was saved; free some space and try again';

/** The coded error for a full disk (507 Insufficient Storage), or undefined when `err` is something else. */
export function diskFullError(err: unknown): AppError | undefined {
  return isDiskFull(err) ? new AppError('DISK_FULL', DISK_FULL_MESSAGE) : undefined;
}
