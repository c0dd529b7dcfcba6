import { createColumnHelper } from '@tanstack/react-table';
import type { SelectableFeatures } from '../../components/SelectableTable';
import { selectColumn } from '../../components/selectColumn';
import { StatusBadge } from '../../components/StatusBadge';
import { StatusTip } from '../../components/StatusTip';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toast';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDate, formatRelativeTime, shortenMiddle } from '../../lib/format';
import type { QueueItem } from './queueApi';
import { errorTooltip } from './rules';

const column = createColumnHelper<SelectableFeatures, QueueItem>();

export interface RowActions {
  retry: (item: QueueItem) => void;
  remove: (item: QueueItem) => void;
  busyId: number | undefined;
  /** 40 on narrow screens, 50 otherwise (docs/console-contract.md §9). */
  pathMax: number;
  /** A read-only user: no row actions (docs/console-contract.md §6). */
  readOnly?: boolean;
}

export const baseName = (path: string) => path.split('/').filter(Boolean).pop() ?? path;

function NzbCell({ item, max }: { item: QueueItem; max: number }) {
  const copy = () =>
    copyText(item.nzb_path).then(
      () => toast.success('Path copied to clipboard'),
      () => toast.error('Failed to copy path'),
    );
  return (
    <div className="queue-nzb">
      <div className="queue-nzb__line">
        <span className="queue-nzb__path" title={item.nzb_path}>
          {shortenMiddle(item.nzb_path, max)}
        </span>
        <button
          type="button"
          className="icon-button icon-button--sm"
          onClick={() => void copy()}
          aria-label={`Copy path of ${baseName(item.nzb_path)}`}
          title="Copy path"
        >
          <Icon name="copy" size={14} />
        </button>
      </div>
      <span className="muted small">ID: {item.id}</span>
    </div>
  );
}

function StatusCell({ item }: { item: QueueItem }) {
  const showError = (item.status === 'failed' || item.status === 'retrying') && item.error_message;
  // A completed import can carry a warning (e.g. a split set missing a piece): shown the same way.
  const warning = item.status === 'completed' ? item.warning_message : null;
  if (!showError && !warning) return <StatusBadge status={item.status} />;
  return <StatusTip status={item.status}>{errorTooltip((showError ? item.error_message : warning) ?? '')}</StatusTip>;
}

function ActionsCell({ item, actions }: { item: QueueItem; actions: RowActions }) {
  const name = baseName(item.nzb_path);
  const busy = actions.busyId === item.id;
  const canRun = item.status === 'pending' || item.status === 'failed' || item.status === 'completed';
  if (actions.readOnly) return null;
  return (
    <div className="row-actions">
      {canRun && (
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => actions.retry(item)}
          disabled={busy}
          aria-label={`${item.status === 'pending' ? 'Process' : 'Retry'} ${name}`}
        >
          <Icon name={item.status === 'pending' ? 'stream' : 'refresh'} size={14} />
          {item.status === 'pending' ? 'Process' : 'Retry'}
        </button>
      )}
      {item.status !== 'processing' && item.status !== 'repairing' && (
        <button
          type="button"
          className="btn btn--ghost btn--sm row-actions__delete"
          onClick={() => actions.remove(item)}
          disabled={busy}
          aria-label={`Delete ${name}`}
        >
          <Icon name="close" size={14} /> Delete
        </button>
      )}
    </div>
  );
}

/** The columns of docs/console-contract.md §2, in order. */
export function queueColumns(actions: RowActions) {
  return column.columns([
    selectColumn<QueueItem>((item) => baseName(item.nzb_path)),
    column.accessor('nzb_path', {
      header: 'NZB File',
      cell: ({ row }) => <NzbCell item={row.original} max={actions.pathMax} />,
    }),
    column.accessor('target_path', {
      header: 'Target Path',
      cell: ({ getValue }) => {
        const v = getValue();
        return v ? <span title={v}>{shortenMiddle(v, actions.pathMax)}</span> : <span className="muted">—</span>;
      },
    }),
    column.accessor('category', {
      header: 'Category',
      cell: ({ getValue }) => getValue() || <span className="muted">default</span>,
    }),
    column.accessor('file_size', { header: 'File Size', cell: ({ getValue }) => formatBytes(getValue()) }),
    column.accessor('status', { header: 'Status', cell: ({ row }) => <StatusCell item={row.original} /> }),
    column.accessor('retry_count', { header: 'Retry Count' }),
    column.accessor('updated_at', {
      header: 'Updated',
      cell: ({ getValue }) => <span title={formatDate(getValue())}>{formatRelativeTime(getValue())}</span>,
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => <ActionsCell item={row.original} actions={actions} />,
    }),
  ]);
}
