import { useState, type DragEvent } from 'react';
import { Badge } from '../../../../components/Badge';
import { Icon } from '../../../../components/Icon';
import type { Provider } from './providersApi';
import type { ProviderStatus } from './providerStatus';
import type { ProviderQuotaView } from '../../../../../../appliance/providers/quota.wire';
import { expiryText, quotaText } from './quotaLine';

interface Props {
  providers: Provider[];
  readOnly: boolean;
  onEdit: (p: Provider) => void;
  onDelete: (p: Provider) => void;
  onToggle: (p: Provider, enabled: boolean) => void;
  /** Move the provider at `from` to position `to` (list order is priority). */
  onMove: (from: number, to: number) => void;
  busyId: string | undefined;
  /** What the pool knows of each provider now, by id (connections the provider allows, breaker). */
  status?: Record<string, ProviderStatus>;
  /** Each provider's quota use and expiry, by id (GET /api/providers/quotas). */
  quotas?: Record<string, ProviderQuotaView>;
  /** Ask a provider that is down again now (POST /api/providers/{id}/reprobe). */
  onReprobe?: (p: Provider) => void;
}

export const providerLabel = (p: Provider) => `${p.host}:${p.port}`;

/**
 * The providers in priority order. Reordered by HTML5 drag and drop, or by the up/down buttons for keyboard and
 * touch users (drag and drop is mouse-only in most browsers).
 */
export function ProviderList(props: Props) {
  const { providers, readOnly, onEdit, onDelete, onToggle, onMove, busyId, status, quotas, onReprobe } = props;
  const [dragFrom, setDragFrom] = useState<number | undefined>();
  const [dragOver, setDragOver] = useState<number | undefined>();

  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const from = dragFrom ?? Number(e.dataTransfer.getData('text/plain'));
    setDragFrom(undefined);
    setDragOver(undefined);
    if (Number.isInteger(from) && from !== to) onMove(from, to);
  };

  return (
    <ol className="provider-list" aria-label="NNTP providers in priority order">
      {providers.map((p, i) => (
        <li
          key={p.id}
          className={`provider-row${dragOver === i ? ' is-drop-target' : ''}${p.enabled ? '' : ' is-disabled'}`}
          draggable={!readOnly}
          onDragStart={(e) => {
            setDragFrom(i);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(i));
          }}
          onDragOver={(e) => {
            e.preventDefault();
            setDragOver(i);
          }}
          onDragLeave={() => setDragOver((cur) => (cur === i ? undefined : cur))}
          onDragEnd={() => {
            setDragFrom(undefined);
            setDragOver(undefined);
          }}
          onDrop={(e) => drop(e, i)}
          data-provider={providerLabel(p)}
        >
          <span className="provider-row__grip" aria-hidden="true">
            ⋮⋮
          </span>
          <span className="provider-row__rank">{i + 1}</span>
          <div className="provider-row__main">
            <p className="provider-row__host">
              {providerLabel(p)}
              {p.tls && <Badge tone="info">TLS</Badge>}
              {p.tls && p.ca && <Badge tone="info">Private CA</Badge>}
              {p.is_backup_provider && <Badge tone="warning">Backup</Badge>}
              {p.candidate && <Badge tone="info">Candidate: never read from</Badge>}
              {!p.enabled && <Badge tone="neutral">Disabled</Badge>}
            </p>
            <p className="provider-row__meta muted small">
              {p.username || 'no username'} · {p.max_connections} connection{p.max_connections === 1 ? '' : 's'}
              {p.tls && ` · CA certificate: ${p.ca ? 'set' : 'not set'}`}
            </p>
            <ProviderStatusLine status={status?.[p.id]} />
            <ProviderLimitsLine
              quota={quotas?.[p.id]}
              status={status?.[p.id]}
              onReprobe={readOnly || !onReprobe ? undefined : () => onReprobe(p)}
              label={providerLabel(p)}
            />
          </div>
          <label className="provider-row__toggle">
            <input
              type="checkbox"
              role="switch"
              checked={p.enabled}
              disabled={readOnly || busyId === p.id}
              onChange={(e) => onToggle(p, e.target.checked)}
              aria-label={`Enabled: ${providerLabel(p)}`}
            />
          </label>
          {!readOnly && (
            <div className="provider-row__actions">
              <button
                type="button"
                className="icon-button icon-button--sm"
                onClick={() => onMove(i, i - 1)}
                disabled={i === 0}
                aria-label={`Move up: ${providerLabel(p)}`}
              >
                <Icon name="chevronDown" size={16} className="icon--flip" />
              </button>
              <button
                type="button"
                className="icon-button icon-button--sm"
                onClick={() => onMove(i, i + 1)}
                disabled={i === providers.length - 1}
                aria-label={`Move down: ${providerLabel(p)}`}
              >
                <Icon name="chevronDown" size={16} />
              </button>
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                onClick={() => onEdit(p)}
                aria-label={`Edit ${providerLabel(p)}`}
              >
                Edit
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                onClick={() => onDelete(p)}
                aria-label={`Delete ${providerLabel(p)}`}
              >
                Delete
              </button>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The pool's view of one provider, when there is something to say: a learned connection cap, a breaker. */
function ProviderStatusLine({ status }: { status: ProviderStatus | undefined }) {
  if (!status?.allowed && !status?.cooling) return null;
  return (
    <p className="provider-row__status small">
      {status.allowed && <Badge tone="warning">{status.allowed}</Badge>}
      {status.cooling && <Badge tone="error">Cooling down</Badge>}
      {status.cooling && <span className="muted">{status.cooling}</span>}
    </p>
  );
}

/** The provider's health with its reason, its quota use and its expiry (docs/nntp.md "Quotas and expiry"). */
function ProviderLimitsLine(props: {
  quota: ProviderQuotaView | undefined;
  status: ProviderStatus | undefined;
  onReprobe: (() => void) | undefined;
  label: string;
}) {
  const { quota, status, onReprobe, label } = props;
  const used = quotaText(quota);
  const expiry = expiryText(quota);
  if (!status?.health && !used && !expiry) return null;
  const tone = status?.health?.startsWith('blocked')
    ? 'error'
    : status?.health?.startsWith('degraded')
      ? 'warning'
      : 'success';
  return (
    <p className="provider-row__status small" aria-label={`State of ${label}`}>
      {status?.health && <Badge tone={tone}>{status.health}</Badge>}
      {quota?.paused && (
        <Badge tone="error">
          Paused until {quota.resets_at ? new Date(quota.resets_at).toLocaleString() : 'the quota is raised'}
        </Badge>
      )}
      {used && <span className="muted">{used}</span>}
      {expiry && <span className={quota && (quota.expires_in_days ?? 99) <= 7 ? 'text-error' : 'muted'}>{expiry}</span>}
      {status?.probeable && onReprobe && (
        <button type="button" className="btn btn--ghost btn--sm" onClick={onReprobe}>
          Re-probe
        </button>
      )}
    </p>
  );
}
