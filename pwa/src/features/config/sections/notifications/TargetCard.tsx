import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { NOTIFY_KIND_LABELS, NOTIFY_KINDS, NOTIFY_TARGET_TYPES } from '../../../../api/types';
import { Badge } from '../../../../components/Badge';
import { Icon } from '../../../../components/Icon';
import { SelectField, TextField, ToggleField } from '../../fields';
import { notifyApi } from './notifyApi';
import { testInput, toggleKind, TYPE_LABEL, URL_PLACEHOLDER, type TargetForm } from './notifyForm';

interface Props {
  target: TargetForm;
  index: number;
  readOnly: boolean;
  onChange: (patch: Partial<TargetForm>) => void;
  onRemove: () => void;
}

/** One notification target: type, URL, write-only token, the kinds it wants, a Test button and removal. */
export function TargetCard({ target, index, readOnly, onChange, onRemove }: Props) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const test = useMutation({
    mutationFn: notifyApi.test,
    onSuccess: (r) =>
      setMessage(r.ok ? { ok: true, text: 'Test notification sent' } : { ok: false, text: r.error ?? 'Failed' }),
    onError: (err) => setMessage({ ok: false, text: describeError(err, 'Test failed') }),
  });
  const label = `Notification target #${index + 1}`;
  return (
    <article className={`arr-card${target.enabled ? '' : ' is-disabled'}`} aria-label={label}>
      <header className="arr-card__header">
        <p className="arr-card__title">
          {target.name.trim() || label}
          <Badge tone="info">{TYPE_LABEL[target.type]}</Badge>
          {!target.enabled && <Badge tone="neutral">Disabled</Badge>}
        </p>
        <ToggleField label="Enabled" checked={target.enabled} onChange={(v) => onChange({ enabled: v })} />
      </header>
      <div className="field-grid field-grid--2">
        <TextField label="Name" value={target.name} onChange={(v) => onChange({ name: v })} />
        <SelectField
          label="Type"
          value={target.type}
          options={NOTIFY_TARGET_TYPES}
          labels={TYPE_LABEL}
          onChange={(v) => onChange({ type: v })}
        />
        <TextField
          label="URL"
          value={target.url}
          placeholder={URL_PLACEHOLDER[target.type]}
          onChange={(v) => onChange({ url: v })}
        />
        <TextField
          label="Token"
          type="password"
          autoComplete="new-password"
          value={target.token}
          placeholder={target.token_set ? '••••••••' : 'Not set'}
          hint={
            target.token_set
              ? 'A token is stored. Leave blank to keep it.'
              : 'Optional: sent as a Bearer token (not used by Discord).'
          }
          onChange={(v) => onChange({ token: v })}
        />
      </div>
      <fieldset className="notify-kinds">
        <legend>Notify about</legend>
        {NOTIFY_KINDS.map((kind) => (
          <label className="check" key={kind}>
            <input
              type="checkbox"
              checked={target.events.includes(kind)}
              onChange={(e) => onChange({ events: toggleKind(target.events, kind, e.target.checked) })}
            />{' '}
            {NOTIFY_KIND_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      {message && (
        <p className={`arr-card__test ${message.ok ? 'text-success' : 'text-error'}`} role="status">
          <Icon name={message.ok ? 'check' : 'alert'} size={14} /> {message.text}
        </p>
      )}
      {!readOnly && (
        <div className="arr-card__actions">
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            disabled={test.isPending || !target.url.trim()}
            onClick={() => {
              setMessage(undefined);
              test.mutate(testInput(target));
            }}
          >
            {test.isPending ? 'Sending...' : 'Test'}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        </div>
      )}
    </article>
  );
}
