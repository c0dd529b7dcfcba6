import { breadcrumbs } from './listing';

/** Root, then each path segment; every crumb but the current one is clickable. */
export function Breadcrumbs({ path, onNavigate }: { path: string; onNavigate: (path: string) => void }) {
  const crumbs = breadcrumbs(path);
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((c, i) => (
          <li key={c.path}>
            {i === crumbs.length - 1 ? (
              <span aria-current="page">{c.label}</span>
            ) : (
              <button type="button" className="breadcrumbs__link" onClick={() => onNavigate(c.path)}>
                {c.label}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
