import type { FileEntry } from '../../lib/webdav';

/** Folders first, then names alphabetically (docs/console-contract.md §2), case-insensitive with numbers in natural order. */
export function sortEntries(entries: readonly FileEntry[]): FileEntry[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...entries].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'directory' ? -1 : 1;
    return collator.compare(a.basename, b.basename);
  });
}

/** Case-insensitive substring match on the name; a blank query keeps everything. */
export function filterEntries(entries: readonly FileEntry[], query: string): FileEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...entries];
  return entries.filter((e) => e.basename.toLowerCase().includes(q));
}

export interface Crumb {
  label: string;
  path: string;
}

/** Root, then one crumb per path segment, each pointing at its own directory. */
export function breadcrumbs(path: string): Crumb[] {
  const parts = path.split('/').filter(Boolean);
  return [
    { label: 'Root', path: '/' },
    ...parts.map((p, i) => ({ label: p, path: `/${parts.slice(0, i + 1).join('/')}` })),
  ];
}
