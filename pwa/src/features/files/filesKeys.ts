import { featureKeys } from '../../lib/queryKeys';

const { all, key } = featureKeys('files');

/** The file browser's query keys: a directory's listings (with and without corrupted files), a file's info. */
export const filesKeys = {
  all,
  /** Both listings of `path`. */
  directory: (path: string) => key('dir', path),
  listing: (path: string, showCorrupted: boolean) => key('dir', path, showCorrupted),
  info: (filename: string) => key('info', filename),
};
