import type { CellContext, ColumnDef, HeaderContext, RowData } from '@tanstack/react-table';
import { Checkbox } from './Checkbox';
import type { SelectableFeatures } from './SelectableTable';

/**
 * The selection column of a SelectableTable: a page-wide checkbox in the header (indeterminate when some rows are
 * selected) and one per row, labelled `Select <name>` for screen readers and tests.
 */
export function selectColumn<T extends RowData>(name: (row: T) => string): ColumnDef<SelectableFeatures, T> {
  return {
    id: 'select',
    header: ({ table }: HeaderContext<SelectableFeatures, T, unknown>) => (
      <Checkbox
        label="Select all on this page"
        checked={table.getIsAllRowsSelected()}
        indeterminate={table.getIsSomeRowsSelected()}
        onChange={(on) => table.toggleAllRowsSelected(on)}
      />
    ),
    cell: ({ row }: CellContext<SelectableFeatures, T, unknown>) => (
      <Checkbox
        label={`Select ${name(row.original)}`}
        checked={row.getIsSelected()}
        onChange={(on) => row.toggleSelected(on)}
      />
    ),
  };
}
