import {
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type RowSelectionState,
} from '@tanstack/react-table';

/** The table features every selectable list uses (react-table v9 `tableFeatures`). */
export const selectableFeatures = tableFeatures({ rowSelectionFeature });
export type SelectableFeatures = typeof selectableFeatures;

interface Props<T extends RowData> {
  items: T[];
  columns: ColumnDef<SelectableFeatures, T>[];
  rowId: (row: T) => string;
  /** Written to each row's data-status (row tinting, tests). */
  rowStatus: (row: T) => string;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  /** aria-sort per column id, for server-sorted columns. */
  sortOf?: (columnId: string) => 'ascending' | 'descending' | 'none' | undefined;
  className?: string;
}

/**
 * A list table with row selection (Queue and Health screens). The server pages, filters and sorts; this
 * only renders one page and keeps the selection, keyed by `rowId`.
 */
export function SelectableTable<T extends RowData>({
  items,
  columns,
  rowId,
  rowStatus,
  selection,
  onSelectionChange,
  sortOf,
  className,
}: Props<T>) {
  const table = useTable({
    features: selectableFeatures,
    data: items,
    columns,
    getRowId: rowId,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater) => onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
  });

  return (
    <div className="table-wrap">
      <table className={className ? `data-table ${className}` : 'data-table'}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  scope="col"
                  className={`col-${header.column.id}`}
                  aria-sort={sortOf?.(header.column.id)}
                >
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-status={rowStatus(row.original)} aria-selected={row.getIsSelected()}>
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
