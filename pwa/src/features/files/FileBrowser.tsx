import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Icon } from '../../components/Icon';
import { LoadingBlock } from '../../components/Spinner';
import { normalizePath, type FileEntry } from '../../lib/webdav';
import { WebdavError } from '../../lib/webdavErrors';
import { Breadcrumbs } from './Breadcrumbs';
import { markUnauthorized } from './connection';
import { FileGrid } from './FileGrid';
import { FileInfoDialog } from './info/FileInfoDialog';
import { filterEntries, sortEntries } from './listing';
import { PreviewDialog } from './preview/PreviewDialog';
import { SearchBar } from './SearchBar';
import { useDirectory } from './useDirectory';
import { useFileActions } from './useFileActions';

/** The connected Files screen: header, search, corrupted toggle, breadcrumbs, grid, dialogs. */
export function FileBrowser() {
  const [params, setParams] = useSearchParams();
  const path = normalizePath(params.get('path') ?? '/');
  const [search, setSearch] = useState('');
  const [showCorrupted, setShowCorrupted] = useState(false);
  const listing = useDirectory(path, showCorrupted, true);
  const actions = useFileActions(path, showCorrupted);

  const navigate = (to: string) => {
    setSearch('');
    setParams(to === '/' ? {} : { path: to });
  };

  useEffect(() => {
    if (listing.error instanceof WebdavError && listing.error.status === 401) markUnauthorized(listing.error.message);
  }, [listing.error]);

  const sorted = useMemo(() => sortEntries(listing.data ?? []), [listing.data]);
  const shown = useMemo(() => filterEntries(sorted, search), [sorted, search]);

  return (
    <div className="files">
      <div className="page-header">
        <div className="page-header__text">
          <span className="files__connected">
            <span className="files__dot" aria-hidden="true" /> Connected
          </span>
        </div>
        <div className="page-header__actions">
          <label className="files__corrupted">
            <input type="checkbox" checked={showCorrupted} onChange={(e) => setShowCorrupted(e.target.checked)} />
            Show corrupted files
          </label>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void listing.refetch()}
            disabled={listing.isFetching}
          >
            <Icon name="refresh" size={16} /> Refresh
          </button>
        </div>
      </div>

      <Breadcrumbs path={path} onNavigate={navigate} />
      <SearchBar
        value={search}
        onChange={setSearch}
        total={sorted.length}
        matches={shown.length}
        disabled={!listing.data}
      />

      {showCorrupted && (
        <div className="alert alert--warning files__corrupted-header">
          <Icon name="warning" size={16} />
          <div>
            <span className="alert__title">Corrupted files</span>
            <span>Corrupted files are listed too.</span>
          </div>
        </div>
      )}

      {actions.operationError && (
        <div className="alert alert--error" role="alert">
          <Icon name="alert" size={16} />
          <div>
            <span className="alert__title">Operation Failed</span>
            <span>{actions.operationError}</span>
            <button type="button" className="btn btn--ghost btn--sm" onClick={actions.clearError}>
              Dismiss
            </button>
          </div>
        </div>
      )}

      {listing.isPending ? (
        <LoadingBlock label="Loading directory..." />
      ) : listing.isError ? (
        <ErrorPanel
          title="Failed to load directory"
          message={listing.error instanceof Error ? listing.error.message : String(listing.error)}
          onRetry={() => void listing.refetch()}
        />
      ) : sorted.length === 0 ? (
        <div className="files-empty">
          <Icon name="files" size={32} />
          <p className="files-empty__title">Empty Directory</p>
          <p className="muted">This folder has no files.</p>
        </div>
      ) : shown.length === 0 ? (
        <div className="files-empty">
          <Icon name="info" size={32} />
          <p className="files-empty__title">No Search Results</p>
          <p className="muted">No items in this folder match &quot;{search}&quot;.</p>
        </div>
      ) : (
        <FileGrid entries={shown} onOpenFolder={(e: FileEntry) => navigate(e.filename)} actions={actions} />
      )}

      <ConfirmDialog
        open={actions.pendingDelete !== null}
        title="Confirm Delete"
        message={`Are you sure you want to delete "${actions.pendingDelete?.basename ?? ''}"? This action cannot be undone.`}
        confirmLabel="Delete"
        tone="danger"
        busy={actions.deleting}
        onConfirm={actions.confirmDelete}
        onCancel={actions.cancelDelete}
      />
      {actions.infoFor && <FileInfoDialog entry={actions.infoFor} onClose={actions.closeInfo} />}
      {actions.previewFor && (
        <PreviewDialog entry={actions.previewFor} onClose={actions.closePreview} onDownload={actions.download} />
      )}
    </div>
  );
}
