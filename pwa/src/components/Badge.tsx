import type { ReactNode } from 'react';

export type Tone = 'success' | 'info' | 'warning' | 'error' | 'neutral' | 'accent';

/** docs/console-contract.md §3 status colours: one place maps a status word to its tone. */
export function statusTone(status: string): Tone {
  switch (status) {
    case 'healthy':
    case 'completed':
      return 'success';
    case 'processing':
    case 'repairing':
    case 'retrying':
    case 'checking':
    case 'repair_triggered':
      return 'info';
    case 'pending':
    case 'partial':
    case 'degraded':
      return 'warning';
    case 'failed':
    case 'corrupted':
    case 'unhealthy':
      return 'error';
    default:
      return 'neutral';
  }
}

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
