import { ArchiveError } from './archive.types.js';

/**
 * Files one import may expose from archives (every set and nesting level together), and file headers one volume
 * may list. A release of media holds a few hundred files at most; a volume of tiny headers could otherwise turn
 * into tens of thousands of virtual files (and as many header reads and layouts). Not a setting: no release an arr
 * asks for comes near it (docs/archives.md, "Limits").
 */
export const MAX_ARCHIVE_MEMBERS = 10_000;

/** `what` lists `count` files (or more: `atLeast`, when reading stopped at the file header `count`), beyond the cap. */
export function tooManyMembers(what: string, count: number, atLeast = false): ArchiveError {
  const found = atLeast ? `more than ${MAX_ARCHIVE_MEMBERS} files (stopped at file header ${count})` : `${count} files`;
  return new ArchiveError(
    'ARCHIVE_UNSUPPORTED',
    `${what}: ${found}; Spool exposes at most ${MAX_ARCHIVE_MEMBERS} files from the archives of one release`,
  );
}
