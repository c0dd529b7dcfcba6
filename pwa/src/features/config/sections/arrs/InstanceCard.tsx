import { Badge } from '../../../../components/Badge';
import { Icon } from '../../../../components/Icon';
import { TextField, ToggleField } from '../../fields';
import { TYPE_LABEL, type ArrInstanceForm } from './arrsForm';
import { useConnectionTest } from './useConnectionTest';

interface Props {
  instance: ArrInstanceForm;
  index: number;
  readOnly: boolean;
  onChange: (patch: Partial<ArrInstanceForm>) => void;
  onRemove: () => void;
}

/** One Radarr or Sonarr instance: its fields, enable switch, connection test and removal. */
export function InstanceCard({ instance, index, readOnly, onChange, onRemove }: Props) {
  const { message, test, testing } = useConnectionTest();
  const label = `${TYPE_LABEL[instance.type]} instance #${index + 1}`;
  return (
    <article className={`arr-card${instance.enabled ? '' : ' is-disabled'}`} aria-label={label}>
      <header className="arr-card__header">
        <p className="arr-card__title">
          {instance.name.trim() || label}
          <Badge tone="info">{TYPE_LABEL[instance.type]}</Badge>
          {!instance.enabled && <Badge tone="neutral">Disabled</Badge>}
        </p>
        <ToggleField label="Enabled" checked={instance.enabled} onChange={(v) => onChange({ enabled: v })} />
      </header>
      <div className="field-grid field-grid--2">
        <TextField label="Name" value={instance.name} onChange={(v) => onChange({ name: v })} />
        <TextField
          label="URL"
          value={instance.url}
          placeholder={instance.type === 'radarr' ? 'http://radarr:7878' : 'http://sonarr:8989'}
          onChange={(v) => onChange({ url: v })}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="new-password"
          value={instance.api_key}
          placeholder={instance.api_key_set ? '••••••••' : 'Not set'}
          hint={instance.api_key_set ? 'A key is stored. Leave blank to keep it.' : 'Settings → General in the arr.'}
          onChange={(v) => onChange({ api_key: v })}
        />
        <TextField
          label="Root folder"
          value={instance.root_folder}
          placeholder="Optional"
          hint="Where this instance sees Spool's mount path; empty when it is the same path."
          onChange={(v) => onChange({ root_folder: v })}
        />
      </div>
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
            onClick={() => test(instance)}
            disabled={testing}
          >
            {testing ? 'Testing...' : 'Test Connection'}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        </div>
      )}
    </article>
  );
}
