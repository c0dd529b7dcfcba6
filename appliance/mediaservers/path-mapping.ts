/** One prefix rewrite: a path Spool (or an arr) knows, as the media server sees it. */
export interface PathMapping {
  from: string;
  to: string;
}

const trimEnd = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

/** Whether `path` is `prefix` or lies under it, by whole path components. */
export function isUnder(path: string, prefix: string): boolean {
  const p = trimEnd(prefix);
  return path === p || p === '/' || path.startsWith(`${p}/`);
}

/**
 * `path` as the media server sees it: the longest `from` it lies under is replaced by that mapping's `to`; with no
 * mapping that matches, the path is the same on both sides (containers sharing one path).
 */
export function mapPath(path: string, mappings: readonly PathMapping[]): string {
  let best: PathMapping | undefined;
  for (const m of mappings)
    if (isUnder(path, m.from) && (!best || trimEnd(m.from).length > trimEnd(best.from).length)) best = m;
  if (!best) return path;
  const from = trimEnd(best.from);
  const rest = from === '/' ? path : path.slice(from.length);
  const to = trimEnd(best.to);
  return to === '/' ? rest || '/' : `${to}${rest}`;
}

/** The folder a refresh asks for: the parent of a file, a folder itself (paths without an extension). */
export function folderOf(path: string, isFolder: boolean): string {
  if (isFolder) return trimEnd(path);
  const cut = trimEnd(path).lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
