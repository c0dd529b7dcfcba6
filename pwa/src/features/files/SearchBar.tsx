import { useId } from 'react';
import { Icon } from '../../components/Icon';

interface Props {
  value: string;
  onChange: (value: string) => void;
  total: number;
  matches: number;
  disabled?: boolean;
}

/** Filters the current directory by name; says how many items match, or why it cannot search. */
export function SearchBar({ value, onChange, total, matches, disabled }: Props) {
  const id = useId();
  const empty = total === 0 && !disabled;
  const searching = value.trim() !== '';
  return (
    <div className="files-search">
      <label htmlFor={id} className="visually-hidden">
        Search this folder
      </label>
      <div className="files-search__box">
        <Icon name="search" size={16} />
        <input
          id={id}
          type="search"
          placeholder={empty ? 'Cannot search - directory is empty' : 'Search this folder...'}
          value={value}
          disabled={disabled || empty}
          onChange={(e) => onChange(e.target.value)}
        />
        {searching && (
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={() => onChange('')}
            aria-label="Clear search"
          >
            <Icon name="close" size={14} />
          </button>
        )}
      </div>
      <p className="files-search__count muted" aria-live="polite">
        {empty
          ? 'Cannot search - directory is empty'
          : searching
            ? `${matches} of ${total} item${total === 1 ? '' : 's'} match`
            : `${total} item${total === 1 ? '' : 's'}`}
      </p>
    </div>
  );
}
