interface Props<Status extends string> {
  /** The search field: its id, its (visually hidden) label and placeholder. */
  search: { id: string; label: string; placeholder: string; value: string; onChange: (text: string) => void };
  /** The status filter: '' is "every status", shown as `allLabel`. */
  status: {
    id: string;
    label: string;
    allLabel: string;
    options: readonly Status[];
    value: Status | '';
    onChange: (status: Status | '') => void;
  };
  /** Focus and blur of the fields pause the page's auto-refresh (useAutoRefresh). */
  pauseHandlers: { onFocus: () => void; onBlur: () => void };
  /** How many rows are selected; the bulk actions show only then. */
  selected: number;
  /** The bulk actions on the selected rows: restart them (named `restartLabel`) or delete them. */
  bulk: { restartLabel: string; onRestart: () => void; onDelete: () => void };
}

/**
 * The filter row of a paged list (Queue and Health screens, docs/console-contract.md §2): search, status filter and,
 * while rows are selected, the count and the bulk actions.
 */
export function ListToolbar<Status extends string>({ search, status, pauseHandlers, selected, bulk }: Props<Status>) {
  return (
    <div className="list-filters">
      <label className="visually-hidden" htmlFor={search.id}>
        {search.label}
      </label>
      <input
        id={search.id}
        className="search-input"
        type="search"
        placeholder={search.placeholder}
        value={search.value}
        onChange={(e) => search.onChange(e.target.value)}
        {...pauseHandlers}
      />
      <label className="visually-hidden" htmlFor={status.id}>
        {status.label}
      </label>
      <select
        id={status.id}
        value={status.value}
        onChange={(e) => status.onChange(e.target.value as Status | '')}
        {...pauseHandlers}
      >
        <option value="">{status.allLabel}</option>
        {status.options.map((st) => (
          <option key={st} value={st}>
            {st}
          </option>
        ))}
      </select>
      {selected > 0 && (
        <div className="list-bulk" role="group" aria-label="Bulk actions">
          <span className="muted small">{selected} selected</span>
          <button type="button" className="btn btn--secondary btn--sm" onClick={bulk.onRestart}>
            {bulk.restartLabel}
          </button>
          <button type="button" className="btn btn--danger btn--sm" onClick={bulk.onDelete}>
            Delete Selected
          </button>
        </div>
      )}
    </div>
  );
}
