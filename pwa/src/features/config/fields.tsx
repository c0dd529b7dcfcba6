import { useId, type ReactNode } from 'react';
import { parseWithFallback, type NumberRule } from './numbers';

interface BaseProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  disabled?: boolean;
}

function Messages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  if (error)
    return (
      <p className="field__error" id={`${id}-msg`}>
        {error}
      </p>
    );
  if (hint)
    return (
      <p className="field__hint" id={`${id}-msg`}>
        {hint}
      </p>
    );
  return null;
}

export function TextField({
  label,
  hint,
  error,
  disabled,
  value,
  onChange,
  type = 'text',
  placeholder,
  autoComplete = 'off',
}: BaseProps & {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  placeholder?: string;
  autoComplete?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? `${id}-msg` : undefined}
      />
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

const PASSWORD_HINTS = { set: 'A password is set. Leave blank to keep it.', unset: 'No password is set.' };

/**
 * A write-only secret: the server only says whether one is stored, and a blank field keeps the stored one. `hints`
 * says so in the words of what is kept (a password by default, a key, a token).
 */
export function SecretField({
  isSet,
  hints = PASSWORD_HINTS,
  ...props
}: Omit<BaseProps, 'hint'> & {
  value: string;
  onChange: (value: string) => void;
  isSet?: boolean;
  hints?: { set: string; unset: ReactNode };
}) {
  return (
    <TextField
      {...props}
      type="password"
      autoComplete="new-password"
      placeholder={isSet ? '••••••••' : 'Not set'}
      hint={isSet ? hints.set : hints.unset}
    />
  );
}

/** A whole-number input; invalid text becomes the rule's fallback (docs/console-contract.md §5). */
export function NumberInput({
  label,
  hint,
  error,
  disabled,
  value,
  rule,
  onChange,
}: BaseProps & { value: number; rule: NumberRule; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={rule.min}
        max={rule.max}
        step={1}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(parseWithFallback(e.target.value, rule))}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-msg`}
      />
      <Messages id={id} hint={hint ?? `${rule.min} – ${rule.max}`} error={error} />
    </div>
  );
}

export function ToggleField({
  label,
  hint,
  disabled,
  checked,
  onChange,
}: BaseProps & { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="toggle">
      <div className="toggle__text">
        <label htmlFor={id} className="toggle__label">
          {label}
        </label>
        {hint && (
          <p className="field__hint" id={`${id}-msg`}>
            {hint}
          </p>
        )}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-msg` : undefined}
      />
    </div>
  );
}

/** One choice of a fixed list; `labels` names the values where the raw value would not read well. */
export function SelectField<T extends string>({
  label,
  hint,
  error,
  disabled,
  value,
  options,
  labels,
  onChange,
}: BaseProps & { value: T; options: readonly T[]; labels?: Partial<Record<T, string>>; onChange: (v: T) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as T)}
        aria-describedby={hint || error ? `${id}-msg` : undefined}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A list of strings edited one per line (see lines.ts for the conversion). */
export function LinesField({
  label,
  hint,
  error,
  disabled,
  value,
  onChange,
  placeholder,
}: BaseProps & { value: string; onChange: (value: string) => void; placeholder?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="field__lines"
        rows={3}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? `${id}-msg` : undefined}
      />
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}
