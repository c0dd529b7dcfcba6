import { Icon } from '../../../../components/Icon';
import { NumberInput, SecretField, TextField, ToggleField } from '../../fields';
import { OptionsField } from './OptionsField';
import type { FormErrors, RcloneForm } from './rcloneForm';
import { RCLONE_NUMBER_RULES } from './rcloneForm';
import type { useRcControls } from './useRcControls';

interface Props {
  form: RcloneForm;
  errors: FormErrors;
  set: <K extends keyof RcloneForm>(key: K, value: RcloneForm[K]) => void;
  rc: ReturnType<typeof useRcControls>;
  mountEnabled: boolean;
  passSet: boolean;
  disabled?: boolean;
}

/** RC remote control: toggle (saved at once, locked while the mount is enabled), connection and test. */
export function RcPanel({ form, errors, set, rc, mountEnabled, passSet, disabled }: Props) {
  return (
    <section className="rclone-block" aria-labelledby="rclone-rc-title">
      <h3 id="rclone-rc-title" className="rclone-block__title">
        <Icon name="plug" size={18} /> RClone Remote Control
      </h3>
      <ToggleField
        label="Enable RC"
        hint={
          mountEnabled
            ? 'Managed automatically while the mount is enabled.'
            : 'Ask an external rclone (rclone rcd) to refresh its directory cache after each import. Saved at once.'
        }
        checked={mountEnabled || rc.rcEnabled}
        onChange={rc.toggle}
        disabled={disabled || mountEnabled || rc.saving}
      />
      <div className="field-grid field-grid--2">
        <TextField
          label="RC URL"
          value={form.rc_url}
          onChange={(v) => set('rc_url', v)}
          error={errors.rc_url}
          placeholder="http://127.0.0.1:5572"
          disabled={disabled}
        />
        <NumberInput
          label="RC port"
          value={form.rc_port}
          rule={RCLONE_NUMBER_RULES.rc_port}
          onChange={(v) => set('rc_port', v)}
          error={errors.rc_port}
          hint="Used when no RC URL is set."
          disabled={disabled}
        />
        <TextField label="RC username" value={form.rc_user} onChange={(v) => set('rc_user', v)} disabled={disabled} />
        <SecretField
          label="RC password"
          value={form.rc_pass}
          onChange={(v) => set('rc_pass', v)}
          isSet={passSet}
          disabled={disabled}
        />
      </div>
      <OptionsField
        label="RC options"
        value={form.rc_options}
        onChange={(v) => set('rc_options', v)}
        error={errors.rc_options}
        disabled={disabled}
      />
      <div className="rclone-test">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={rc.test}
          disabled={disabled || !rc.canTest || rc.testing}
        >
          <Icon name="activity" size={16} /> {rc.testing ? 'Testing...' : 'Test Connection'}
        </button>
        {rc.testResult && (
          <span
            role="status"
            data-testid="rc-test-result"
            className={rc.testResult.ok ? 'rclone-test__ok' : 'field__error'}
          >
            {rc.testResult.ok ? 'Connection successful! RClone RC is accessible.' : rc.testResult.message}
          </span>
        )}
      </div>
    </section>
  );
}
