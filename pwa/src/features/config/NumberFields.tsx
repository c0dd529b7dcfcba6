import { NumberInput } from './fields';
import { rangeError, type NumberRule } from './numbers';

/** One whole-number field of a section, as a table row: its key in the form, its label, and an optional hint. */
export type NumberRow<K extends string> = readonly [key: K, label: string, hint?: string];

/** The range error of each row's value (undefined where it is in range). */
export function numberErrors<K extends string>(
  rows: readonly NumberRow<K>[],
  values: Record<K, number>,
  rule: (key: K) => NumberRule,
): Record<K, string | undefined> {
  return Object.fromEntries(rows.map(([key]) => [key, rangeError(values[key], rule(key))])) as Record<
    K,
    string | undefined
  >;
}

/** One NumberInput per row, in the table's order, for a section's field grid. */
export function NumberFields<K extends string>({
  rows,
  values,
  errors,
  rule,
  onChange,
}: {
  rows: readonly NumberRow<K>[];
  values: Record<K, number>;
  errors: Partial<Record<K, string>>;
  rule: (key: K) => NumberRule;
  onChange: (key: K, value: number) => void;
}) {
  return (
    <>
      {rows.map(([key, label, hint]) => (
        <NumberInput
          key={key}
          label={label}
          value={values[key]}
          rule={rule(key)}
          onChange={(v) => onChange(key, v)}
          error={errors[key]}
          hint={hint}
        />
      ))}
    </>
  );
}
