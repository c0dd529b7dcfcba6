import { LinesField } from '../../fields';

/** An option map edited as `key=value` lines. */
export function OptionsField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <LinesField
      {...props}
      placeholder="key=value, one per line"
      hint="One key=value per line; true, false and numbers keep their type."
    />
  );
}
