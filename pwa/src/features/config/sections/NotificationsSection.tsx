import type { SpoolConfig } from '../../../api/types';
import { ToggleField } from '../fields';
import { NumberFields, numberErrors, type NumberRow } from '../NumberFields';
import { NUMBER_RULES } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';
import { AddItemButton, CardGroup, patchAt, ProblemsAlert, removeAt } from './cards/CardList';
import { formFromConfig, newTarget, payloadOf, problemsOf, type NotificationsForm } from './notifications/notifyForm';
import { TargetCard } from './notifications/TargetCard';
import './notifications/notifications.css';

const NUMBERS = [
  ['min_interval_seconds', 'Minimum interval (seconds)', 'Per target and kind; notices in between are sent as one.'],
  ['timeout_seconds', 'Timeout (seconds)', 'A target that does not answer in time is retried.'],
  ['stall_seconds', 'Stream stalled after (seconds)', 'A stream that waits this long for data is reported.'],
  ['backlog_growth', 'Health backlog growth (files)', 'Reported when files waiting for a check rise by this much.'],
] as const satisfies readonly NumberRow<keyof NotificationsForm>[];
const rule = (key: (typeof NUMBERS)[number][0]) => NUMBER_RULES[`notifications.${key}`];

/** The notifications entity (docs/notifications.md, docs/configuration.md "notifications"), in the System section. */
export function NotificationsSection({ config, readOnly = false }: SectionProps & { config: SpoolConfig }) {
  const { form, set, setForm, dirty, reset } = useSectionForm(formFromConfig(config.notifications));
  const save = useSaveConfig('Notification settings saved');
  const errors = numberErrors(NUMBERS, form, rule);
  const problems = problemsOf(form);

  return (
    <SectionLayout
      title="Notifications"
      titleId="config-notifications-title"
      description="Tell a webhook, ntfy, Discord or an Apprise API server when imports fail, repairs run, providers go down or the disk fills up."
      onSave={() => save.mutate({ steps: [{ section: 'notifications', payload: payloadOf(form) }] })}
      onDiscard={reset}
      dirty={dirty}
      valid={problems.length === 0 && Object.values(errors).every((e) => !e)}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <ToggleField
        label="Send notifications"
        hint="Off: nothing is sent (the Test buttons still work)."
        checked={form.enabled}
        onChange={(v) => set('enabled', v)}
      />
      <div className="field-grid field-grid--2">
        <NumberFields rows={NUMBERS} values={form} errors={errors} rule={rule} onChange={set} />
      </div>
      <ProblemsAlert problems={problems} />
      <CardGroup label="Notification targets" title="Targets" emptyText="No notification targets configured.">
        {form.targets.map((t, i) => (
          <TargetCard
            key={i}
            target={t}
            index={i}
            readOnly={readOnly}
            onChange={(patch) => setForm((f) => ({ ...f, targets: patchAt(f.targets, i, patch) }))}
            onRemove={() => setForm((f) => ({ ...f, targets: removeAt(f.targets, i) }))}
          />
        ))}
      </CardGroup>
      <AddItemButton
        label="Add Target"
        readOnly={readOnly}
        onClick={() => setForm((f) => ({ ...f, targets: [...f.targets, newTarget(f.targets.length)] }))}
      />
    </SectionLayout>
  );
}
