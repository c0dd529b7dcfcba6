import type { ReactNode } from 'react';
import { Icon } from './Icon';

interface ErrorPanelProps {
  title: string;
  message?: string;
  onRetry?: () => void;
  retryLabel?: string;
  children?: ReactNode;
}

/** The list/section error of docs/console-contract.md §8: what failed, why, and a way to try again. */
export function ErrorPanel({ title, message, onRetry, retryLabel = 'Retry', children }: ErrorPanelProps) {
  return (
    <div className="panel panel--error" role="alert">
      <Icon name="alert" className="panel__icon" size={22} />
      <div className="panel__body">
        <p className="panel__title">{title}</p>
        {message && <p className="panel__message">{message}</p>}
        {children}
        {onRetry && (
          <button type="button" className="btn btn--secondary btn--sm" onClick={onRetry}>
            <Icon name="refresh" size={14} /> {retryLabel}
          </button>
        )}
      </div>
    </div>
  );
}
