import { useId, type ReactNode } from 'react';
import { Icon } from './Icon';
import { StatusBadge } from './StatusBadge';

/**
 * A status badge with an info icon whose tooltip explains it (a failed import's error, a health record's last
 * error). The tooltip shows on hover and keyboard focus and is the element's accessible description.
 */
export function StatusTip({ status, children }: { status: string; children: ReactNode }) {
  const tipId = useId();
  return (
    <span className="status-tip" tabIndex={0} aria-describedby={tipId}>
      <StatusBadge status={status} />
      <Icon name="info" size={14} className="status-tip__icon" />
      <span role="tooltip" id={tipId} className="status-tip__tooltip">
        {children}
      </span>
    </span>
  );
}
