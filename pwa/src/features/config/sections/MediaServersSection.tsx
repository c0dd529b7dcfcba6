import type { SpoolConfig } from '../../../api/types';
import { ToggleField } from '../fields';
import { NumberFields, numberErrors, type NumberRow } from '../NumberFields';
import { NUMBER_RULES } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';
import { AddItemButton, CardGroup, patchAt, ProblemsAlert, removeAt } from './cards/CardList';
import {
  formFromConfig,
  newServer,
  payloadOf,
  problemsOf,
  type MediaServersForm,
} from './mediaservers/mediaServersForm';
import { ServerCard } from './mediaservers/ServerCard';
import './notifications/notifications.css';

const NUMBERS = [
  ['debounce_seconds', 'Wait before telling (seconds)', 'Changes in this window go as one refresh per folder.'],
  ['timeout_seconds', 'Timeout (seconds)', 'A server that does not answer in time is retried with back-off.'],
] as const satisfies readonly NumberRow<keyof MediaServersForm>[];
const rule = (key: (typeof NUMBERS)[number][0]) => NUMBER_RULES[`media_servers.${key}`];

/** Plex, Jellyfin and Emby told which folders changed (docs/mediaservers.md), beside the arrs. */
export function MediaServersSection({ config, readOnly = false }: SectionProps & { config: SpoolConfig }) {
  const { form, set, setForm, dirty, reset } = useSectionForm(formFromConfig(config.media_servers));
  const save = useSaveConfig('Media server settings saved');
  const errors = numberErrors(NUMBERS, form, rule);
  const problems = problemsOf(form);
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
        onChange={(v) => set('enabled', v)}
      />
      <div className="field-grid field-grid--2">
        <NumberFields rows={NUMBERS} values={form} errors={errors} rule={rule} onChange={set} />
      </div>
      <ProblemsAlert problems={problems} />
      <CardGroup label="Media servers" emptyText="No media servers configured.">
        {form.servers.map((s, i) => (
          <ServerCard
            key={i}
            server={s}
            index={i}
            readOnly={readOnly}
            onChange={(patch) => setForm((f) => ({ ...f, servers: patchAt(f.servers, i, patch) }))}
            onRemove={() => setForm((f) => ({ ...f, servers: removeAt(f.servers, i) }))}
          />
        ))}
      </CardGroup>
      <AddItemButton
        label="Add Media Server"
        readOnly={readOnly}
        onClick={() => setForm((f) => ({ ...f, servers: [...f.servers, newServer(f.servers.length)] }))}
      />
    </SectionLayout>
  );
}
