import type { SpoolConfig } from '../../../api/types';
import { Icon } from '../../../components/Icon';
import { NumberInput, ToggleField } from '../fields';
import { NUMBER_RULES, rangeError } from '../numbers';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';
import {
  formFromConfig,
  newTarget,
  payloadOf,
  type NotificationsForm,
  type TargetForm,
} from './notifications/notifyForm';
import { TargetCard } from './notifications/TargetCard';
import './arrs/arrs.css';
import './notifications/notifications.css';

const NUMBERS = [
  ['min_interval_seconds', 'Minimum interval (seconds)', 'Per target and kind; notices in between are sent as one.'],
  ['timeout_seconds', 'Timeout (seconds)', 'A target that does not answer in time is retried.'],
  ['stall_seconds', 'Stream stalled after (seconds)', 'A stream that waits this long for data is reported.'],
  ['backlog_growth', 'Health backlog growth (files)', 'Reported when files waiting for a check rise by this much.'],
] as const satisfies readonly [keyof NotificationsForm, string, string][];

/** The notifications entity (docs/notifications.md, docs/configuration.md "notifications"), in the System section. */
export function NotificationsSection({ config, readOnly = false }: SectionProps & { config: SpoolConfig }) {
  const { form, setForm, dirty, reset } = useSectionForm(formFromConfig(config.notifications));
  const save = useSaveConfig('Notification settings saved');
  const errors = Object.fromEntries(
    NUMBERS.map(([key]) => [key, rangeError(form[key], NUMBER_RULES[`notifications.${key}`])]),
  ) as Record<(typeof NUMBERS)[number][0], string | undefined>;
  const names = form.targets.map((t) => t.name.trim());
  const problems = [
    ...(names.some((n) => !n) ? ['Every target needs a name'] : []),
    ...(new Set(names).size !== names.length ? ['Target names must be unique'] : []),
    ...(form.targets.some((t) => !/^https?:\/\/./i.test(t.url.trim())) ? ['Every target needs an http(s) URL'] : []),
  ];
  const setTarget = (i: number, patch: Partial<TargetForm>) =>
    setForm((f) => ({ ...f, targets: f.targets.map((t, j) => (j === i ? { ...t, ...patch } : t)) }));

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
        onChange={(v) => setForm((f) => ({ ...f, enabled: v }))}
      />
      <div className="field-grid field-grid--2">
        {NUMBERS.map(([key, label, hint]) => (
          <NumberInput
            key={key}
            label={label}
            value={form[key]}
            rule={NUMBER_RULES[`notifications.${key}`]}
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
      <section className="arr-group" aria-label="Notification targets">
        <h3 className="arr-group__title">Targets</h3>
        {form.targets.length === 0 ? (
          <p className="muted small">No notification targets configured.</p>
        ) : (
          form.targets.map((t, i) => (
            <TargetCard
              key={i}
              target={t}
              index={i}
              readOnly={readOnly}
              onChange={(patch) => setTarget(i, patch)}
              onRemove={() => setForm((f) => ({ ...f, targets: f.targets.filter((_, j) => j !== i) }))}
            />
          ))
        )}
      </section>
      {!readOnly && (
        <div>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => setForm((f) => ({ ...f, targets: [...f.targets, newTarget(f.targets.length)] }))}
          >
            <Icon name="plug" size={16} /> Add Target
          </button>
        </div>
      )}
    </SectionLayout>
  );
}
