import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { MEDIA_SERVER_KIND_LABELS, MEDIA_SERVER_KINDS } from '../../../../api/types';
import { Badge } from '../../../../components/Badge';
import { Icon } from '../../../../components/Icon';
import { SelectField, TextField, ToggleField } from '../../fields';
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
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const test = useMutation({
    mutationFn: mediaServersApi.test,
    onSuccess: (r) =>
      setMessage({
        ok: r.ok,
        text: r.ok && r.locations.length ? `${r.message}. Libraries: ${r.locations.join(', ')}` : r.message,
      }),
    onError: (err) => setMessage({ ok: false, text: describeError(err, 'Test failed') }),
  });
  const label = `Media server #${index + 1}`;
  const setMapping = (i: number, patch: Partial<{ from: string; to: string }>) =>
    onChange({ path_mappings: server.path_mappings.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  return (
    <article className={`arr-card${server.enabled ? '' : ' is-disabled'}`} aria-label={label}>
      <header className="arr-card__header">
        <p className="arr-card__title">
          {server.name.trim() || label}
          <Badge tone="info">{MEDIA_SERVER_KIND_LABELS[server.kind]}</Badge>
          {!server.enabled && <Badge tone="neutral">Disabled</Badge>}
        </p>
        <ToggleField label="Enabled" checked={server.enabled} onChange={(v) => onChange({ enabled: v })} />
      </header>
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
        <TextField
          label="Token"
          type="password"
          autoComplete="new-password"
          value={server.token}
          placeholder={server.token_set ? '••••••••' : 'Not set'}
          hint={server.token_set ? 'A token is stored. Leave blank to keep it.' : TOKEN_HINT[server.kind]}
          onChange={(v) => onChange({ token: v })}
        />
      </div>
      <ToggleField
        label="Refresh on import"
        hint="Tell this server when an import completes: for a library that points at Spool's mount with no arr importing."
        checked={server.refresh_imports}
        onChange={(v) => onChange({ refresh_imports: v })}
      />
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
            disabled={test.isPending || !server.url.trim()}
            onClick={() => {
              setMessage(undefined);
              test.mutate({
                name: server.saved_name || server.name,
                kind: server.kind,
                url: server.url.trim(),
                token: server.token,
              });
            }}
          >
            {test.isPending ? 'Testing...' : 'Test'}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        </div>
      )}
    </article>
  );
}
