import { Badge, statusTone } from './Badge';
import { Icon, type IconName } from './Icon';
import { Spinner } from './Spinner';

const ICONS: Record<string, IconName> = {
  healthy: 'check',
  partial: 'warning',
  corrupted: 'alert',
  pending: 'clock',
};

/** Health/queue status with its icon; checking and repair_triggered spin (docs/console-contract.md §2). */
export function StatusBadge({ status }: { status: string }) {
  const busy = status === 'checking' || status === 'repair_triggered';
  const icon = ICONS[status];
  return (
    <Badge tone={statusTone(status)}>
      {busy ? <Spinner size="sm" label={status} /> : icon ? <Icon name={icon} size={12} /> : null}
      {status.replace('_', ' ')}
    </Badge>
  );
}
