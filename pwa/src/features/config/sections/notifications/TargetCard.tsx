import { NOTIFY_KIND_LABELS, NOTIFY_KINDS, NOTIFY_TARGET_TYPES } from '../../../../api/types';
import { SecretField, SelectField, TextField } from '../../fields';
import { ItemCard } from '../cards/ItemCard';
import { useCardTest } from '../cards/useCardTest';
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
  const { message, start, testing } = useCardTest({
    send: notifyApi.test,
    messageOf: (r) => (r.ok ? { ok: true, text: 'Test notification sent' } : { ok: false, text: r.error ?? 'Failed' }),
    failText: 'Test failed',
  });
  return (
    <ItemCard
      label={`Notification target #${index + 1}`}
      name={target.name}
      kind={TYPE_LABEL[target.type]}
      enabled={target.enabled}
      onEnabled={(v) => onChange({ enabled: v })}
      message={message}
      readOnly={readOnly}
      testLabel={testing ? 'Sending...' : 'Test'}
      testDisabled={testing || !target.url.trim()}
      onTest={() => start(testInput(target))}
      onRemove={onRemove}
    >
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
        <SecretField
          label="Token"
          value={target.token}
          isSet={target.token_set}
          hints={{
            set: 'A token is stored. Leave blank to keep it.',
            unset: 'Optional: sent as a Bearer token (not used by Discord).',
          }}
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
    </ItemCard>
  );
}
