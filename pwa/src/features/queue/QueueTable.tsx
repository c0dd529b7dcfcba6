import { useMemo } from 'react';
import { useTable, type RowSelectionState } from '@tanstack/react-table';
import type { QueueItem } from './queueApi';
import { queueColumns, queueTableFeatures, type RowActions } from './queueColumns';

interface Props {
  items: QueueItem[];
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  actions: RowActions;
}

/** The queue table on @tanstack/react-table v9 (`useTable` + `tableFeatures`); the server pages and filters. */
export function QueueTable({ items, selection, onSelectionChange, actions }: Props) {
  const columns = useMemo(() => queueColumns(actions), [actions]);
  const table = useTable({
    features: queueTableFeatures,
    data: items,
    columns,
    getRowId: (row) => String(row.id),
    state: { rowSelection: selection },
    onRowSelectionChange: (updater) => onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
  });

  return (
    <div className="table-wrap">
      <table className="data-table queue-table">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={`col-${header.column.id}`}>
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-status={row.original.status} aria-selected={row.getIsSelected()}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={`col-${cell.column.id}`}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
