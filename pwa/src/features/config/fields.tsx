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

/** The attributes every labelled control shares: its id, whether it is in error, and the message that describes it. */
function useControlProps(hint: ReactNode, error: string | undefined) {
  const id = useId();
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': hint || error ? `${id}-msg` : undefined,
  } as const;
}

/** The frame of a labelled control: the label, the control, and its hint or error under it. */
function FieldFrame({ id, label, hint, error, children }: BaseProps & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
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
  const control = useControlProps(hint, error);
  return (
    <FieldFrame id={control.id} label={label} hint={hint} error={error}>
      <input
        {...control}
        type={type}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </FieldFrame>
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
  const message = hint ?? `${rule.min} – ${rule.max}`;
  const control = useControlProps(message, error);
  return (
    <FieldFrame id={control.id} label={label} hint={message} error={error}>
      <input
        {...control}
        type="number"
        inputMode="numeric"
        min={rule.min}
        max={rule.max}
        step={1}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(parseWithFallback(e.target.value, rule))}
      />
    </FieldFrame>
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
  const control = useControlProps(hint, error);
  return (
    <FieldFrame id={control.id} label={label} hint={hint} error={error}>
      <select {...control} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </FieldFrame>
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
  const control = useControlProps(hint, error);
  return (
    <FieldFrame id={control.id} label={label} hint={hint} error={error}>
      <textarea
        {...control}
        className="field__lines"
        rows={3}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
    </FieldFrame>
  );
}
