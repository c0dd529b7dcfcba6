import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { shouldRetryQuery } from '../../../lib/queryClient';
import { formatBytes, formatDate } from '../../../lib/format';
import type { FileEntry } from '../../../lib/webdav';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { LoadingBlock } from '../../../components/Spinner';
import { filesApi } from '../filesApi';
import { filesKeys } from '../filesKeys';
import { Modal } from '../../../components/Modal';
import { typeLabel } from '../preview';
import { OverviewTab } from './OverviewTab';
import { SegmentsTab } from './SegmentsTab';
import { SourceTab } from './SourceTab';

const TABS = ['Overview', 'Segments', 'Source'] as const;
type Tab = (typeof TABS)[number];

/** File info (docs/console-contract.md §2): Overview, Segments and Source tabs over GET /api/files/info. */
export function FileInfoDialog({ entry, onClose }: { entry: FileEntry; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('Overview');
  const info = useQuery({
    queryKey: filesKeys.info(entry.filename),
    queryFn: ({ signal }) => filesApi.info(entry.filename, signal),
    retry: shouldRetryQuery,
    staleTime: 0,
  });

  return (
    <Modal title={entry.basename} subtitle={entry.filename} onClose={onClose} wide>
      {info.isPending ? (
        <LoadingBlock label="Loading metadata..." />
      ) : info.isError ? (
        <ErrorPanel
          title="Metadata Not Available"
          message={info.error instanceof Error ? info.error.message : String(info.error)}
          onRetry={() => void info.refetch()}
        >
          <dl className="file-facts">
            <dt>Size</dt>
            <dd>{formatBytes(entry.size)}</dd>
            <dt>Modified</dt>
            <dd>{formatDate(entry.lastmod)}</dd>
            <dt>Type</dt>
            <dd>{typeLabel(entry)}</dd>
            <dt>Path</dt>
            <dd className="file-mono">{entry.filename}</dd>
          </dl>
        </ErrorPanel>
      ) : (
        <>
          <div role="tablist" className="file-tabs" aria-label="File information">
            {TABS.map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                id={`file-info-tab-${t}`}
                aria-selected={tab === t}
                aria-controls={`file-info-panel-${t}`}
                className={tab === t ? 'file-tabs__tab file-tabs__tab--active' : 'file-tabs__tab'}
                onClick={() => setTab(t)}
              >
                {t}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`file-info-panel-${tab}`}
            aria-labelledby={`file-info-tab-${tab}`}
            className="file-tabs__panel"
          >
            {tab === 'Overview' && <OverviewTab entry={entry} meta={info.data} />}
            {tab === 'Segments' && <SegmentsTab meta={info.data} />}
            {tab === 'Source' && <SourceTab meta={info.data} />}
          </div>
        </>
      )}
    </Modal>
  );
}
