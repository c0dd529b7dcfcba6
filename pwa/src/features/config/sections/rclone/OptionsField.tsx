import { useId } from 'react';

/** An option map edited as `key=value` lines. */
export function OptionsField({
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="rclone-options"
        rows={3}
        value={value}
        disabled={disabled}
        spellCheck={false}
        placeholder="key=value, one per line"
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-msg`}
      />
      {error ? (
        <p className="field__error" id={`${id}-msg`}>
          {error}
        </p>
      ) : (
        <p className="field__hint" id={`${id}-msg`}>
          One key=value per line; true, false and numbers keep their type.
        </p>
      )}
    </div>
  );
}
