import { BACKBONE_NAMES } from '../../../../../../appliance/nntp/backbones.wire';
import { QUOTA_PERIODS, type QuotaPeriod } from '../../../../../../appliance/config/provider-quota.wire';
import type { ProviderForm } from './providerForm';

interface Props {
  form: ProviderForm;
  set: <K extends keyof ProviderForm>(key: K, value: ProviderForm[K]) => void;
  fid: string;
  /** The server's message for each field it refused (docs/configuration.md "providers"). */
  errors: Record<string, string>;
}

const GB = 1e9;
const gb = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined || Number.isNaN(bytes) ? '' : bytes / GB;
const bytesOf = (v: string): number | null => (v.trim() === '' ? null : Math.round(Number(v) * GB));
const PERIOD_LABELS: Record<QuotaPeriod, string> = {
  none: 'No quota',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  lifetime: 'Lifetime (block)',
};

/**
 * The provider form's routing, quota and expiry fields (docs/nntp.md "Routing", "Quotas and expiry"). Sizes are
 * typed in GB (10^9 bytes, as providers sell them) and sent in bytes; the server refuses what is wrong, with the
 * field's message shown under it.
 */
export function LimitsFields({ form, set, fid, errors }: Props) {
  const error = (key: string) => errors[key] && <p className="field__error">{errors[key]}</p>;
  const period = form.quota_period ?? 'none';
  return (
    <>
      <div className="field">
        <label htmlFor={`${fid}-retention`}>Retention (days)</label>
        <input
          id={`${fid}-retention`}
          type="number"
          value={form.retention_days ?? ''}
          placeholder="Unlimited"
          onChange={(e) => set('retention_days', e.target.value.trim() === '' ? null : Number(e.target.value))}
        />
        {error('retention_days')}
      </div>
      <div className="field">
        <label htmlFor={`${fid}-backbone`}>Backbone</label>
        <input
          id={`${fid}-backbone`}
          list={`${fid}-backbones`}
          value={form.backbone ?? ''}
          placeholder="From the host"
          onChange={(e) => set('backbone', e.target.value.trim())}
        />
        <datalist id={`${fid}-backbones`}>
          {BACKBONE_NAMES.map((b) => (
            <option key={b} value={b} />
          ))}
        </datalist>
        {error('backbone')}
      </div>
      <div className="provider-form__switches">
        <label className="check">
          <input
            type="checkbox"
            checked={form.block_account ?? false}
            onChange={(e) => set('block_account', e.target.checked)}
          />{' '}
          Block account
        </label>
        <label className="check">
          <input type="checkbox" checked={form.required ?? false} onChange={(e) => set('required', e.target.checked)} />{' '}
          Required
        </label>
      </div>
      <div className="field">
        <label htmlFor={`${fid}-quota-period`}>Quota</label>
        <select
          id={`${fid}-quota-period`}
          value={period}
          onChange={(e) => set('quota_period', e.target.value as QuotaPeriod)}
        >
          {QUOTA_PERIODS.map((p) => (
            <option key={p} value={p}>
              {PERIOD_LABELS[p]}
            </option>
          ))}
        </select>
        {error('quota_period')}
      </div>
      {period !== 'none' && (
        <div className="field">
          <label htmlFor={`${fid}-quota-gb`}>Quota size (GB)</label>
          <input
            id={`${fid}-quota-gb`}
            type="number"
            step="any"
            value={gb(form.quota_bytes)}
            onChange={(e) => set('quota_bytes', bytesOf(e.target.value))}
          />
          {error('quota_bytes')}
        </div>
      )}
      {(period === 'weekly' || period === 'monthly') && (
        <div className="field">
          <label htmlFor={`${fid}-quota-reset`}>
            {period === 'weekly' ? 'Resets on weekday (1 Monday – 7 Sunday)' : 'Resets on day of month'}
          </label>
          <input
            id={`${fid}-quota-reset`}
            type="number"
            value={form.quota_reset_day ?? 1}
            onChange={(e) => set('quota_reset_day', Number(e.target.value))}
          />
          {error('quota_reset_day')}
        </div>
      )}
      {period === 'lifetime' && (
        <div className="field">
          <label htmlFor={`${fid}-quota-used`}>Already used (GB)</label>
          <input
            id={`${fid}-quota-used`}
            type="number"
            step="any"
            value={gb(form.quota_used_bytes)}
            onChange={(e) => set('quota_used_bytes', bytesOf(e.target.value) ?? 0)}
          />
          {error('quota_used_bytes')}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${fid}-expires`}>Account expires on</label>
        <input
          id={`${fid}-expires`}
          type="date"
          value={form.expires_on ?? ''}
          onChange={(e) => set('expires_on', e.target.value === '' ? null : e.target.value)}
        />
        {error('expires_on')}
      </div>
    </>
  );
}
