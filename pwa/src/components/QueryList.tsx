import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { describeError } from '../api/client';
import { ErrorPanel } from './ErrorPanel';
import { LoadingBlock } from './Spinner';

interface Props<Data, Row> {
  query: UseQueryResult<Data>;
  /** The rows of an answer. */
  rowsOf: (data: Data) => Row[];
  /** Shown while the first answer is on its way ('Loading queue...'). */
  loadingText: string;
  /** The error's title, and its message when the error says nothing better ('Failed to load queue'). */
  failText: string;
  /** Shown when the answer holds no row. */
  emptyText: ReactNode;
  retryLabel?: string;
  /** The rows drawn, once there are some. */
  children: (rows: Row[]) => ReactNode;
}

/**
 * The body of a list the server answers (docs/console-contract.md §8): a spinner while the first answer is on its
 * way, the error with a way to try again, the empty text, or the rows.
 */
export function QueryList<Data, Row>({
  query,
  rowsOf,
  loadingText,
  failText,
  emptyText,
  retryLabel,
  children,
}: Props<Data, Row>) {
  if (query.isPending) return <LoadingBlock label={loadingText} />;
  if (query.isError)
    return (
      <ErrorPanel
        title={failText}
        message={describeError(query.error, failText)}
        onRetry={() => void query.refetch()}
        retryLabel={retryLabel}
      />
    );
  const rows = rowsOf(query.data);
  if (rows.length === 0) return <p className="empty-state">{emptyText}</p>;
  return <>{children(rows)}</>;
}
