import { useMemo } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { SelectableTable } from '../../components/SelectableTable';
import type { QueueItem } from './queueApi';
import { queueColumns, type RowActions } from './queueColumns';

interface Props {
  items: QueueItem[];
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  actions: RowActions;
}

/** The queue table: the columns of docs/console-contract.md §2 over the shared selectable table; the server pages and filters. */
export function QueueTable({ items, selection, onSelectionChange, actions }: Props) {
  const columns = useMemo(() => queueColumns(actions), [actions]);
  return (
    <SelectableTable
      items={items}
      columns={columns}
      rowId={(row) => String(row.id)}
      rowStatus={(row) => row.status}
      selection={selection}
      onSelectionChange={onSelectionChange}
      className="queue-table"
    />
  );
}
