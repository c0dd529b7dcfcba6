import type { ProviderForm } from './providerForm';

interface Props {
  form: ProviderForm;
  set: <K extends keyof ProviderForm>(key: K, value: ProviderForm[K]) => void;
  fid: string;
}

/** An empty input is "no value" (null); anything else is the number typed (the server refuses what is wrong). */
const nullableNumber = (v: string): number | null => (v.trim() === '' ? null : Number(v));
const shown = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? '' : v);

/**
 * The provider form's fit report and price fields (docs/providers.md "Fit report", "Cost view"): a candidate is
 * never used for reads, only STAT-sampled on its budget; a price is per month, or per block of a size in GB.
 */
export function FitFields({ form, set, fid }: Props) {
  const number = (key: 'price_per_month' | 'price_per_block' | 'block_size_gb', label: string) => (
    <div className="field">
      <label htmlFor={`${fid}-${key}`}>{label}</label>
      <input
        id={`${fid}-${key}`}
        type="number"
        min={0}
        step="any"
        value={shown(form[key])}
        onChange={(e) => set(key, nullableNumber(e.target.value))}
      />
    </div>
  );
  return (
    <>
      <div className="provider-form__switches">
        <label className="check">
          <input
            type="checkbox"
            checked={form.candidate ?? false}
            onChange={(e) => set('candidate', e.target.checked)}
          />{' '}
          Candidate (on trial: never used for reads, only STAT-sampled)
        </label>
      </div>
      {form.candidate && (
        <div className="field">
          <label htmlFor={`${fid}-fit-stats`}>STATs per hour</label>
          <input
            id={`${fid}-fit-stats`}
            type="number"
            min={1}
            max={100000}
            value={shown(form.fit_stats_per_hour)}
            onChange={(e) =>
              set('fit_stats_per_hour', e.target.value.trim() === '' ? Number.NaN : Number(e.target.value))
            }
          />
          <p className="field__hint">
            Articles sampled an hour: at most one STAT each to the candidate and your providers
          </p>
        </div>
      )}
      {number('price_per_month', 'Price per month')}
      {number('price_per_block', 'Price per block')}
      {number('block_size_gb', 'Block size (GB)')}
    </>
  );
}
