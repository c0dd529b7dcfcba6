import { Icon } from '../../components/Icon';
import { formatBytes, formatDate, formatRelativeTime } from '../../lib/format';
import type { FileEntry } from '../../lib/webdav';
import { ItemMenu, type MenuItem } from './ItemMenu';
import { isPreviewable, typeLabel } from './preview';
import type { FileActions } from './useFileActions';

/**
 * The item menu (docs/console-contract.md §2): a file's info, preview, download, NZB export; 'Copy Stream Link' for
 * administrators (they make stream links: docs/security.md "Stream links"); Delete unless the user is read-only.
 */
function menuItems(entry: FileEntry, actions: FileActions): MenuItem[] {
  const remove: MenuItem[] = actions.canChange
    ? [{ label: 'Delete', danger: true, onSelect: () => actions.requestDelete(entry) }]
    : [];
  if (entry.type === 'directory') return remove;
  return [
    { label: 'File Info', onSelect: () => actions.openInfo(entry) },
    ...(isPreviewable(entry.basename, entry.mime)
      ? [{ label: 'Preview', onSelect: () => actions.openPreview(entry) }]
      : []),
    { label: 'Download', onSelect: () => actions.download(entry) },
    ...(actions.canLink ? [{ label: 'Copy Stream Link', onSelect: () => actions.copyStreamLink(entry) }] : []),
    { label: 'Export as NZB', onSelect: () => actions.exportNzb(entry) },
    ...remove,
  ];
}

/** One item: name, size, relative modified time, type, and its menu. A folder's name opens it. */
export function FileCard({
  entry,
  onOpenFolder,
  actions,
}: {
  entry: FileEntry;
  onOpenFolder: (e: FileEntry) => void;
  actions: FileActions;
}) {
  const dir = entry.type === 'directory';
  return (
    <article className="file-card" data-testid="file-card" aria-label={entry.basename}>
      <div className="file-card__head">
        <Icon
          name={dir ? 'files' : 'stream'}
          size={22}
          className={dir ? 'file-card__icon file-card__icon--dir' : 'file-card__icon'}
        />
        {menuItems(entry, actions).length > 0 && <ItemMenu name={entry.basename} items={menuItems(entry, actions)} />}
      </div>
      {dir ? (
        <button
          type="button"
          className="file-card__name file-card__name--link"
          onClick={() => onOpenFolder(entry)}
          title={entry.basename}
        >
          {entry.basename}
        </button>
      ) : (
        <p className="file-card__name" title={entry.basename}>
          {entry.basename}
        </p>
      )}
      <dl className="file-card__facts">
        <div>
          <dt>Size</dt>
          <dd>{dir ? '—' : formatBytes(entry.size)}</dd>
        </div>
        <div>
          <dt>Modified</dt>
          <dd title={formatDate(entry.lastmod)}>{formatRelativeTime(entry.lastmod)}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{typeLabel(entry)}</dd>
        </div>
      </dl>
    </article>
  );
}
