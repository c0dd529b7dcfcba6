import { MEDIA_SERVER_KIND_LABELS, MEDIA_SERVER_KINDS } from '../../../../api/types';
import { SecretField, SelectField, TextField, ToggleField } from '../../fields';
import { ItemCard } from '../cards/ItemCard';
import { patchAt } from '../cards/CardList';
import { useCardTest } from '../cards/useCardTest';
import { mediaServersApi } from './mediaServersApi';
import { TOKEN_HINT, URL_PLACEHOLDER, type ServerForm } from './mediaServersForm';

interface Props {
  server: ServerForm;
  index: number;
  readOnly: boolean;
  onChange: (patch: Partial<ServerForm>) => void;
  onRemove: () => void;
}

/** One media server: kind, URL, write-only token, path mappings, whether imports refresh it, a Test button. */
export function ServerCard({ server, index, readOnly, onChange, onRemove }: Props) {
  const { message, start, testing } = useCardTest({
    send: mediaServersApi.test,
    messageOf: (r) => ({
      ok: r.ok,
      text: r.ok && r.locations.length ? `${r.message}. Libraries: ${r.locations.join(', ')}` : r.message,
    }),
    failText: 'Test failed',
  });
  const label = `Media server #${index + 1}`;
  return (
    <ItemCard
      label={label}
      name={server.name}
      kind={MEDIA_SERVER_KIND_LABELS[server.kind]}
      enabled={server.enabled}
      onEnabled={(v) => onChange({ enabled: v })}
      message={message}
      readOnly={readOnly}
      testLabel={testing ? 'Testing...' : 'Test'}
      testDisabled={testing || !server.url.trim()}
      onTest={() =>
        start({
          name: server.saved_name || server.name,
          kind: server.kind,
          url: server.url.trim(),
          token: server.token,
        })
      }
      onRemove={onRemove}
    >
      <div className="field-grid field-grid--2">
        <TextField label="Name" value={server.name} onChange={(v) => onChange({ name: v })} />
        <SelectField
          label="Kind"
          value={server.kind}
          options={MEDIA_SERVER_KINDS}
          labels={MEDIA_SERVER_KIND_LABELS}
          onChange={(v) => onChange({ kind: v })}
        />
        <TextField
          label="URL"
          value={server.url}
          placeholder={URL_PLACEHOLDER[server.kind]}
          onChange={(v) => onChange({ url: v })}
        />
        <SecretField
          label="Token"
          value={server.token}
          isSet={server.token_set}
          hints={{ set: 'A token is stored. Leave blank to keep it.', unset: TOKEN_HINT[server.kind] }}
          onChange={(v) => onChange({ token: v })}
        />
      </div>
      <ToggleField
        label="Refresh on import"
        hint="Tell this server when an import completes: for a library that points at Spool's mount with no arr importing."
        checked={server.refresh_imports}
        onChange={(v) => onChange({ refresh_imports: v })}
      />
      <PathMappings label={label} server={server} readOnly={readOnly} onChange={onChange} />
    </ItemCard>
  );
}

function PathMappings({ label, server, readOnly, onChange }: Omit<Props, 'index' | 'onRemove'> & { label: string }) {
  const setMapping = (i: number, patch: Partial<{ from: string; to: string }>) =>
    onChange({ path_mappings: patchAt(server.path_mappings, i, patch) });
  return (
    <fieldset className="notify-kinds" aria-label={`${label} path mappings`}>
      <legend>Path mappings (a path Spool or an arr knows → the same folder as this server sees it)</legend>
      {server.path_mappings.map((m, i) => (
        <div className="field-grid field-grid--2" key={i}>
          <TextField
            label={`From #${i + 1}`}
            value={m.from}
            placeholder="/mnt/spool"
            onChange={(v) => setMapping(i, { from: v })}
          />
          <TextField
            label={`To #${i + 1}`}
            value={m.to}
            placeholder="/media/spool"
            onChange={(v) => setMapping(i, { to: v })}
          />
        </div>
      ))}
      {!readOnly && (
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => onChange({ path_mappings: [...server.path_mappings, { from: '', to: '' }] })}
        >
          Add mapping
        </button>
      )}
    </fieldset>
  );
}
