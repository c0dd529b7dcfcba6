import type { ReactNode } from 'react';
import { Icon } from '../../../../components/Icon';
import './cards.css';

/** What stops a list section from saving, listed above its cards; `title` heads the list when given. */
export function ProblemsAlert({ problems, title }: { problems: readonly string[]; title?: string }) {
  if (problems.length === 0) return null;
  const list = (
    <ul className="arr-issues">
      {problems.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
  return (
    <div className="alert alert--error" role="alert">
      <Icon name="alert" />
      {title ? (
        <div>
          <p className="alert__title">{title}</p>
          {list}
        </div>
      ) : (
        list
      )}
    </div>
  );
}

/** One group of cards, named for screen readers, with the text shown while it holds none. */
export function CardGroup({
  label,
  title,
  emptyText,
  children,
}: {
  label: string;
  title?: string;
  emptyText: string;
  children: readonly ReactNode[];
}) {
  return (
    <section className="arr-group" aria-label={label}>
      {title && <h3 className="arr-group__title">{title}</h3>}
      {children.length === 0 ? <p className="muted small">{emptyText}</p> : children}
    </section>
  );
}

/** The button under a list section's cards that adds one (hidden to a read-only user). */
export function AddItemButton({ label, readOnly, onClick }: { label: string; readOnly: boolean; onClick: () => void }) {
  if (readOnly) return null;
  return (
    <div>
      <button type="button" className="btn btn--secondary" onClick={onClick}>
        <Icon name="plug" size={16} /> {label}
      </button>
    </div>
  );
}

/** The list with item `index` changed by `patch`. */
export function patchAt<T>(list: readonly T[], index: number, patch: Partial<T>): T[] {
  return list.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/** The list without item `index`. */
export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}
