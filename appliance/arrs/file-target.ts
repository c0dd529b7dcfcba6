import { readlink } from 'node:fs/promises';
import { posix } from 'node:path';

/**
 * The broken file as an arr may have recorded it (docs/arrs.md, "Which arr owns a file"). Spool's file lives at
 * `<mount_path><virtual path>`; an instance sees the mount at its `root_folder` when that is set. The arr's record
 * is either that path itself, or a symlink (Spool's `symlink` import strategy; the arr moved it into its library)
 * whose target is that path.
 */
export interface FileTarget {
  /** The path inside Spool's virtual tree ('/complete/movies/Job/film.mkv'). */
  virtualPath: string;
  /** Absolute paths that name the file: on Spool's mount, and where this instance sees the mount. */
  paths: Set<string>;
  /** The release folder the file came in (what the arr sent as the NZB name), when the path shows one. */
  jobName?: string;
  /** Lower-cased extension ('.mkv'), '' when none. */
  extension: string;
}

/** Reads a symlink on Spool's filesystem; the absolute target, or undefined when `path` is no readable symlink. */
export type ReadLink = (path: string) => Promise<string | undefined>;

const clean = (p: string) => {
  const n = posix.normalize(p);
  return n.length > 1 ? n.replace(/\/+$/, '') : n;
};

/** `path` may be a virtual path or an absolute path under mount_path. */
export function fileTarget(path: string, mountPath: string, rootFolder: string): FileTarget {
  const mount = clean(mountPath || '/');
  let virtualPath = clean(path.startsWith('/') ? path : `/${path}`);
  if (mount !== '/' && virtualPath.startsWith(`${mount}/`)) virtualPath = virtualPath.slice(mount.length);
  const paths = new Set([clean(`${mount}${virtualPath}`)]);
  if (rootFolder.trim()) paths.add(clean(`${rootFolder.trim()}${virtualPath}`));
  const segs = virtualPath.split('/').filter(Boolean);
  // /complete/<category>/<job>/...: the job folder is the release name; elsewhere the file's own folder.
  const jobName = segs[0] === 'complete' && segs.length >= 4 ? segs[2] : segs.length >= 2 ? segs.at(-2) : undefined;
  return { virtualPath, paths, jobName, extension: posix.extname(virtualPath).toLowerCase() };
}

export const readLinkTarget: ReadLink = async (path) => {
  try {
    return posix.resolve(posix.dirname(path), await readlink(path));
  } catch {
    return undefined;
  }
};

/**
 * Whether an arr file record (its `path`) is the broken file: the same path, or a symlink (followed through at
 * most four links) that ends at it. Never a prefix or name match: another file's record must never match.
 */
export async function recordIsFile(recordPath: string, target: FileTarget, read: ReadLink): Promise<boolean> {
  let p = clean(recordPath);
  for (let hop = 0; hop <= 4; hop++) {
    if (target.paths.has(p)) return true;
    const next = await read(p);
    if (next === undefined) return false;
    p = clean(next);
  }
  return false;
}
