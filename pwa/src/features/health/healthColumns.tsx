import { createColumnHelper } from '@tanstack/react-table';
import { Icon } from '../../components/Icon';
import type { SelectableFeatures } from '../../components/SelectableTable';
import { selectColumn } from '../../components/selectColumn';
import { StatusBadge } from '../../components/StatusBadge';
import { StatusTip } from '../../components/StatusTip';
import { formatDate, formatRelativeTime, shortenMiddle } from '../../lib/format';
import type { HealthRecord, HealthSortBy, SortOrder } from './healthApi';
import { detailsText, errorTip, fileName, retryLines } from './rules';
import type { HealthRowActions } from './useHealthActions';

const column = createColumnHelper<SelectableFeatures, HealthRecord>();

export interface HealthColumnOptions {
  actions: HealthRowActions;
  sortBy: HealthSortBy;
  sortOrder: SortOrder;
  onSort: (by: HealthSortBy) => void;
  /** Paths cut at 40 on narrow screens, 50 otherwise; error tooltips likewise. */
  textMax: number;
}

function SortHeader({ label, by, opts }: { label: string; by: HealthSortBy; opts: HealthColumnOptions }) {
  const active = opts.sortBy === by;
  const icon = !active ? 'sort' : opts.sortOrder === 'asc' ? 'chevronUp' : 'chevronDown';
  return (
    <button type="button" className="sort-button" onClick={() => opts.onSort(by)}>
      {label}
      <Icon name={icon} size={14} />
    </button>
  );
}

function StatusCell({ record, max }: { record: HealthRecord; max: number }) {
  const error = record.last_error ?? '';
  const details = detailsText(record.error_details);
  // The tooltip is cut (50/40 characters); the whole error and its technical details open below the badge.
  const full = [error.length > max ? error : '', details ?? ''].filter(Boolean).join('\n\n');
  return (
    <div className="health-status">
      {error ? (
        <StatusTip status={record.status}>{errorTip(error, max)}</StatusTip>
      ) : (
        <StatusBadge status={record.status} />
      )}
      {record.repaired_from === 'par2' && <span className="health-status__repaired">Repaired from PAR2</span>}
      {full && (
        <details className="health-status__details">
          <summary>Technical details</summary>
          <pre>{full}</pre>
        </details>
      )}
    </div>
  );
}

function ActionsCell({ record, actions }: { record: HealthRecord; actions: HealthRowActions }) {
  const name = fileName(record.file_path);
  const busy = actions.busyId === record.id;
  const button = (label: string, icon: Parameters<typeof Icon>[0]['name'], onClick: () => void, danger = false) => (
    <button
      type="button"
      className={`icon-button icon-button--sm${danger ? ' row-actions__delete' : ''}`}
      onClick={onClick}
      disabled={busy}
      aria-label={`${label} ${name}`}
      title={label}
    >
      <Icon name={icon} size={15} />
    </button>
  );
  if (actions.readOnly) return null;
  return (
    <div className="row-actions">
      {record.status === 'checking'
        ? button('Cancel Check', 'close', () => actions.cancel(record))
        : button('Retry Check', 'refresh', () => actions.retry(record))}
      {button('Trigger Repair', 'wrench', () => actions.repair(record))}
      {button('Delete Record', 'trash', () => actions.remove(record), true)}
    </div>
  );
}

const when = (iso: string | null) => <span title={iso ? formatDate(iso) : undefined}>{formatRelativeTime(iso)}</span>;

/** The Health columns (docs/console.md), in order; File Path and Created At sort on the server. */
export function healthColumns(opts: HealthColumnOptions) {
  return column.columns([
    selectColumn<HealthRecord>((record) => fileName(record.file_path)),
    column.accessor('file_path', {
      header: () => <SortHeader label="File Path" by="file_path" opts={opts} />,
      cell: ({ getValue }) => (
        <span className="health-path" title={getValue()}>
          {shortenMiddle(getValue(), opts.textMax)}
        </span>
      ),
    }),
    column.accessor('source_nzb_path', {
      header: 'Source NZB',
      cell: ({ getValue }) => {
        const v = getValue();
        return v ? <span title={v}>{shortenMiddle(v, opts.textMax)}</span> : <span className="muted">—</span>;
      },
    }),
    column.accessor('status', {
      header: 'Status',
      cell: ({ row }) => <StatusCell record={row.original} max={opts.textMax} />,
    }),
    column.display({
      id: 'retries',
      header: 'Retries',
      cell: ({ row }) => (
        <span className="health-retries">
          {retryLines(row.original).map((line) => (
            <span key={line}>{line}</span>
          ))}
        </span>
      ),
    }),
    column.accessor('last_checked', { header: 'Last Check', cell: ({ getValue }) => when(getValue()) }),
    column.accessor('created_at', {
      header: () => <SortHeader label="Created At" by="created_at" opts={opts} />,
      cell: ({ getValue }) => when(getValue()),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => <ActionsCell record={row.original} actions={opts.actions} />,
    }),
  ]);
}
