import { useMemo } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { SelectableTable } from '../../components/SelectableTable';
import type { HealthRecord } from './healthApi';
import { healthColumns, type HealthColumnOptions } from './healthColumns';

interface Props extends HealthColumnOptions {
  records: HealthRecord[];
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
}

/** The health table; rows are keyed by file path because the bulk calls take file paths (POST /health/bulk/*). */
export function HealthTable({ records, selection, onSelectionChange, ...opts }: Props) {
  const { actions, sortBy, sortOrder, onSort, textMax } = opts;
  const columns = useMemo(
    () => healthColumns({ actions, sortBy, sortOrder, onSort, textMax }),
    [actions, sortBy, sortOrder, onSort, textMax],
  );
  return (
    <SelectableTable
      items={records}
      columns={columns}
      rowId={(r) => r.file_path}
      rowStatus={(r) => r.status}
      selection={selection}
      onSelectionChange={onSelectionChange}
      sortOf={(id) => {
        if (id !== 'file_path' && id !== 'created_at') return undefined;
        if (id !== sortBy) return 'none';
        return sortOrder === 'asc' ? 'ascending' : 'descending';
      }}
      className="health-table"
    />
  );
}
