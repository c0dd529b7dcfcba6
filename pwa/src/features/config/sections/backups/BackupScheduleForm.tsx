import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { backupsApi } from '../../../../api/backups';
import type { SpoolConfig } from '../../../../api/types';
import type { SchedulePreview } from '../../../../../../appliance/backup/backup.wire';
import { formatDate } from '../../../../lib/format';
import { useDebounced } from '../../../../lib/hooks';
import { NumberInput, TextField } from '../../fields';
import { fieldMessages } from '../../fieldMessages';
import { NUMBER_RULES } from '../../numbers';
import { useSaveConfig, useSectionForm } from '../../useSectionForm';

type BackupsConfig = SpoolConfig['backups'];

const RETENTION = [
  ['keep_count', 'Backups kept', 'The newest this many are kept (0: any number). Kept-forever ones do not count.'],
  ['keep_days', 'Keep for (days)', 'Older ones are removed (0: any age). Kept-forever ones are never removed.'],
] as const satisfies readonly [keyof BackupsConfig, string, string][];

/**
 * A schedule as the server reads it (GET /system/backups/schedule: croner, on the appliance's clock), asked 300 ms
 * after typing stops: the console never parses cron itself.
 */
function useSchedulePreview(schedule: string): SchedulePreview | undefined {
  const expression = useDebounced(schedule.trim(), 300);
  return useQuery({
    queryKey: ['system', 'backups', 'schedule', expression],
    queryFn: () => backupsApi.preview(expression),
    // An empty field has nothing to preview (the save is refused with the field's message).
    enabled: expression !== '',
  }).data;
}

/** The next times the schedule runs; nothing while croner refuses it (its reason is under the field). */
function NextRuns({ preview }: { preview: SchedulePreview | undefined }) {
  if (!preview || preview.error) return null;
  if (preview.next_runs.length === 0)
    return <p className="field__hint">{preview.schedule === 'off' ? 'No scheduled backups.' : 'Never runs.'}</p>;
  return (
    <div className="field__hint">
      Next runs:
      <ul aria-label="Next runs">
        {preview.next_runs.map((at) => (
          <li key={at}>{formatDate(at)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * System, Backups: the schedule (`backups.schedule`, a cron expression or off) and retention (`keep_count`,
 * `keep_days`), saved with PATCH /config/backups; the server's refusal of each field is shown under it.
 */
export function BackupScheduleForm({ saved, readOnly }: { saved: BackupsConfig; readOnly?: boolean }) {
  const queryClient = useQueryClient();
  const { form, set, dirty, reset } = useSectionForm({ ...saved });
  const [refused, setRefused] = useState<Record<string, string>>({});
  const save = useSaveConfig('Backup schedule saved');
  const preview = useSchedulePreview(form.schedule);
  const edit = <K extends keyof BackupsConfig>(key: K, value: BackupsConfig[K]) => {
    setRefused((r) => Object.fromEntries(Object.entries(r).filter(([field]) => field !== key)));
    set(key, value);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || save.isPending) return;
    const payload = { ...form, schedule: form.schedule.trim() };
    save.mutate(
      { steps: [{ section: 'backups', payload }] },
      {
        onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['system', 'backups'] }),
        onError: (err) => setRefused(fieldMessages(err, 'backups.')),
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Backup schedule" noValidate>
      <fieldset className="fieldset" disabled={readOnly || save.isPending}>
        <div className="field-grid field-grid--2">
          <div>
            <TextField
              label="Schedule"
              value={form.schedule}
              onChange={(v) => edit('schedule', v)}
              placeholder="0 3 * * *"
              error={refused.schedule ?? preview?.error ?? undefined}
              hint="A cron expression (minute hour day month weekday), in the appliance's local time, or off."
            />
            <NextRuns preview={preview} />
          </div>
          {RETENTION.map(([key, label, hint]) => (
            <NumberInput
              key={key}
              label={label}
              value={form[key]}
              rule={NUMBER_RULES[`backups.${key}`]}
              onChange={(v) => edit(key, v)}
              error={refused[key]}
              hint={hint}
            />
          ))}
        </div>
      </fieldset>
      {!readOnly && (
        <div className="form-actions">
          <button type="button" className="btn btn--ghost" onClick={reset} disabled={!dirty || save.isPending}>
            Discard
          </button>
          <button type="submit" className="btn btn--primary" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving...' : 'Save schedule'}
          </button>
        </div>
      )}
    </form>
  );
}
