import type { ReactNode } from 'react';
import { Badge } from '../../../../components/Badge';
import { Icon } from '../../../../components/Icon';
import { ToggleField } from '../../fields';
import type { TestMessage } from './useCardTest';
import './cards.css';

interface Props {
  /** The card's accessible name ('Media server #2'); also its title while the name is empty. */
  label: string;
  name: string;
  /** The badge beside the title: the instance's type or the server's kind. */
  kind: string;
  enabled: boolean;
  onEnabled: (enabled: boolean) => void;
  message: TestMessage | undefined;
  readOnly: boolean;
  testLabel: string;
  testDisabled: boolean;
  onTest: () => void;
  onRemove: () => void;
  /** The card's own fields, between its header and its test message. */
  children: ReactNode;
}

/**
 * The frame every configured item of a list section shares (an arr instance, a media server, a notification
 * target): title with its kind and a Disabled badge, the Enabled switch, the last test's message, and the Test and
 * Remove buttons (hidden to a read-only user).
 */
export function ItemCard({
  label,
  name,
  kind,
  enabled,
  onEnabled,
  message,
  readOnly,
  testLabel,
  testDisabled,
  onTest,
  onRemove,
  children,
}: Props) {
  return (
    <article className={`arr-card${enabled ? '' : ' is-disabled'}`} aria-label={label}>
      <header className="arr-card__header">
        <p className="arr-card__title">
          {name.trim() || label}
          <Badge tone="info">{kind}</Badge>
          {!enabled && <Badge tone="neutral">Disabled</Badge>}
        </p>
        <ToggleField label="Enabled" checked={enabled} onChange={onEnabled} />
      </header>
      {children}
      {message && (
        <p className={`arr-card__test ${message.ok ? 'text-success' : 'text-error'}`} role="status">
          <Icon name={message.ok ? 'check' : 'alert'} size={14} /> {message.text}
        </p>
      )}
      {!readOnly && (
        <div className="arr-card__actions">
          <button type="button" className="btn btn--secondary btn--sm" onClick={onTest} disabled={testDisabled}>
            {testLabel}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        </div>
      )}
    </article>
  );
}
