import { SecretField, TextField } from '../../fields';
import { ItemCard } from '../cards/ItemCard';
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
  return (
    <ItemCard
      label={`${TYPE_LABEL[instance.type]} instance #${index + 1}`}
      name={instance.name}
      kind={TYPE_LABEL[instance.type]}
      enabled={instance.enabled}
      onEnabled={(v) => onChange({ enabled: v })}
      message={message}
      readOnly={readOnly}
      testLabel={testing ? 'Testing...' : 'Test Connection'}
      testDisabled={testing}
      onTest={() => test(instance)}
      onRemove={onRemove}
    >
      <div className="field-grid field-grid--2">
        <TextField label="Name" value={instance.name} onChange={(v) => onChange({ name: v })} />
        <TextField
          label="URL"
          value={instance.url}
          placeholder={instance.type === 'radarr' ? 'http://radarr:7878' : 'http://sonarr:8989'}
          onChange={(v) => onChange({ url: v })}
        />
        <SecretField
          label="API key"
          value={instance.api_key}
          isSet={instance.api_key_set}
          hints={{ set: 'A key is stored. Leave blank to keep it.', unset: 'Settings → General in the arr.' }}
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
    </ItemCard>
  );
}
