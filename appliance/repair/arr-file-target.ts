import { open, readlink } from 'node:fs/promises';
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
  /**
   * The file as it sits in its download folder: `<job>/<path inside the job>`. Every import strategy publishes it
   * under that name (a symlink, the same name plus `.strm`, or the mount's own folder), so the path the arr took the
   * file from (its history's `droppedPath`) ends with it, whatever prefix the arr's path mapping adds.
   */
  inJob?: string;
  /** Lower-cased extension ('.mkv'), '' when none. */
  extension: string;
}

/**
 * What Spool can see of an arr's library on its own filesystem. Both answer undefined when there is nothing
 * readable at `path` (not there, not a link, no permission): that is "no match", never an error.
 */
export interface FileView {
  /** The absolute target of a symlink. */
  readLink(path: string): Promise<string | undefined>;
  /** The URL a `.strm` file holds (the `strm` import strategy writes one WebDAV URL per file). */
  readStrm(path: string): Promise<string | undefined>;
}

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
  const jobAt = segs[0] === 'complete' && segs.length >= 4 ? 2 : segs.length >= 2 ? segs.length - 2 : undefined;
  const jobName = jobAt === undefined ? undefined : segs[jobAt];
  const inJob = jobAt === undefined ? undefined : segs.slice(jobAt).join('/');
  return { virtualPath, paths, jobName, inJob, extension: posix.extname(virtualPath).toLowerCase() };
}

/** A .strm file is one short line; anything longer is not one of ours. */
const STRM_MAX_BYTES = 4096;

export const localFiles: FileView = {
  async readLink(path) {
    try {
      return posix.resolve(posix.dirname(path), await readlink(path));
    } catch {
      return undefined;
    }
  },
  async readStrm(path) {
    try {
      const fh = await open(path, 'r');
      try {
        const buf = Buffer.alloc(STRM_MAX_BYTES + 1);
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        return bytesRead > STRM_MAX_BYTES ? undefined : buf.toString('utf8', 0, bytesRead).trim();
      } finally {
        await fh.close();
      }
    } catch {
      return undefined;
    }
  },
};

/** Whether a .strm URL names the file: its path is `<base>/webdav<virtual path>` (decoded). */
function strmNamesFile(text: string, target: FileTarget): boolean {
  try {
    const path = decodeURIComponent(new URL(text).pathname);
    return path.endsWith(`/webdav${target.virtualPath}`);
  } catch {
    return false;
  }
}

/**
 * Whether the path an arr imported a download's file from (`droppedPath`, in the arr's own view, maybe Windows
 * style) is this file's entry in the download folder: it ends with `/<job>/<path inside the job>`, or that plus
 * `.strm`. Only asked of the history of this file's own download id, so the job folder is this file's.
 */
export function droppedIsFile(droppedPath: string, target: FileTarget): boolean {
  if (!target.inJob) return false;
  const p = clean(droppedPath.replace(/\\/g, '/'));
  const names = p.toLowerCase().endsWith('.strm') ? [p, p.slice(0, -'.strm'.length)] : [p];
  return names.some((n) => n === `/${target.inJob}` || n.endsWith(`/${target.inJob}`));
}

/**
 * Whether an arr file record (its `path`) is the broken file: the same path, a symlink (followed through at most
 * four links) that ends at it, or a `.strm` file whose URL names it. Never a prefix or name match: another file's
 * record must never match.
 */
export async function recordIsFile(recordPath: string, target: FileTarget, view: FileView): Promise<boolean> {
  let p = clean(recordPath);
  if (p.toLowerCase().endsWith('.strm')) {
    const text = await view.readStrm(p);
    return text !== undefined && strmNamesFile(text, target);
  }
  for (let hop = 0; hop <= 4; hop++) {
    if (target.paths.has(p)) return true;
    const next = await view.readLink(p);
    if (next === undefined) return false;
    p = clean(next);
  }
  return false;
}
