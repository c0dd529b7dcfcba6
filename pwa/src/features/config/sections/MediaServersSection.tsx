import type { SpoolConfig } from '../../../api/types';
import { Icon } from '../../../components/Icon';
import { NumberInput, ToggleField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';
import { formFromConfig, newServer, payloadOf, problemsOf, type ServerForm } from './mediaservers/mediaServersForm';
import { ServerCard } from './mediaservers/ServerCard';
import './arrs/arrs.css';
import './notifications/notifications.css';

const NUMBERS = [
  ['debounce_seconds', 'Wait before telling (seconds)', 'Changes in this window go as one refresh per folder.'],
  ['timeout_seconds', 'Timeout (seconds)', 'A server that does not answer in time is retried with back-off.'],
] as const;

/** Plex, Jellyfin and Emby told which folders changed (docs/mediaservers.md), beside the arrs. */
export function MediaServersSection({ config, readOnly = false }: SectionProps & { config: SpoolConfig }) {
  const { form, setForm, dirty, reset } = useSectionForm(formFromConfig(config.media_servers));
  const save = useSaveConfig('Media server settings saved');
  const errors = Object.fromEntries(
    NUMBERS.map(([key]) => [key, rangeError(form[key], NUMBER_RULES[`media_servers.${key}`])]),
  ) as Record<(typeof NUMBERS)[number][0], string | undefined>;
  const problems = problemsOf(form);
  const setServer = (i: number, patch: Partial<ServerForm>) =>
    setForm((f) => ({ ...f, servers: f.servers.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));
  return (
    <SectionLayout
      title="Media Servers"
      titleId="config-mediaservers-title"
      description="Tell Plex, Jellyfin or Emby which folder changed when an import lands, a repair swaps a file, a file is deleted or a .strm is rewritten, so the library never waits for a scan."
      onSave={() => save.mutate({ steps: [{ section: 'media_servers', payload: payloadOf(form) }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={problems.length === 0 && Object.values(errors).every((e) => !e)}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <ToggleField
        label="Tell media servers"
        hint="Off: no refresh is sent (the Test buttons still work)."
        checked={form.enabled}
        onChange={(v) => setForm((f) => ({ ...f, enabled: v }))}
      />
      <div className="field-grid field-grid--2">
        {NUMBERS.map(([key, label, hint]) => (
          <NumberInput
            key={key}
            label={label}
            value={form[key]}
            rule={NUMBER_RULES[`media_servers.${key}`]}
            onChange={(v) => setForm((f) => ({ ...f, [key]: v }))}
            error={errors[key]}
            hint={hint}
          />
        ))}
      </div>
      {problems.length > 0 && (
        <div className="alert alert--error" role="alert">
          <Icon name="alert" />
          <ul className="arr-issues">
            {problems.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      <section className="arr-group" aria-label="Media servers">
        {form.servers.length === 0 ? (
          <p className="muted small">No media servers configured.</p>
        ) : (
          form.servers.map((s, i) => (
            <ServerCard
              key={i}
              server={s}
              index={i}
              readOnly={readOnly}
              onChange={(patch) => setServer(i, patch)}
              onRemove={() => setForm((f) => ({ ...f, servers: f.servers.filter((_, j) => j !== i) }))}
            />
          ))
        )}
      </section>
      {!readOnly && (
        <div>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setForm((f) => ({ ...f, servers: [...f.servers, newServer(f.servers.length)] }))}
          >
            <Icon name="plug" size={16} /> Add Media Server
          </button>
        </div>
      )}
    </SectionLayout>
  );
}
