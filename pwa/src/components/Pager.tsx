import { pagerWindow, showingRange } from './pager';

interface Props {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}

/** docs/console-contract.md §2/§9 pagination: hidden for a single page; 'Showing a-b of n results'; first/prev/windows/next/last. */
export function Pager({ page, pageSize, total, onPage, label }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const go = (p: number) => onPage(Math.min(pages, Math.max(1, p)));
  return (
    <nav className="pager" aria-label={label}>
      <p className="pager__info muted">{showingRange(page, pageSize, total)}</p>
      <div className="pager__buttons">
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => go(1)} disabled={page === 1}>
          First
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => go(page - 1)} disabled={page === 1}>
          Previous
        </button>
        {pagerWindow(page, pages).map((entry) =>
          typeof entry === 'number' ? (
            <button
              key={entry}
              type="button"
              className={`btn btn--sm ${entry === page ? 'btn--primary' : 'btn--ghost'}`}
              onClick={() => go(entry)}
              aria-current={entry === page ? 'page' : undefined}
              aria-label={`Page ${entry}`}
            >
              {entry}
            </button>
          ) : (
            <span key={entry} className="pager__ellipsis" aria-hidden="true">
              …
            </span>
          ),
        )}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => go(page + 1)} disabled={page === pages}>
          Next
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => go(pages)} disabled={page === pages}>
          Last
        </button>
      </div>
    </nav>
  );
}
