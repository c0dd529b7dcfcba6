import { useState, type FormEvent } from 'react';
import { register } from '../../auth/authStore';
import { Icon } from '../../components/Icon';
import { ErrorAlert } from './ErrorAlert';
import { validateRegistration, type RegistrationErrors, type RegistrationInput } from './validation';

interface Props {
  onRegistered: () => void;
}

const EMPTY: RegistrationInput = { username: '', email: '', password: '', confirmPassword: '' };

export function RegisterForm({ onRegistered }: Props) {
  const [values, setValues] = useState<RegistrationInput>(EMPTY);
  const [errors, setErrors] = useState<RegistrationErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (field: keyof RegistrationInput) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateRegistration(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      const email = values.email.trim();
      await register({ username: values.username.trim(), password: values.password, ...(email ? { email } : {}) });
      onRegistered();
    } catch (err) {
      setServerError(err instanceof Error ? err.message : 'Registration failed');
      setBusy(false);
    }
  };

  const field = (name: keyof RegistrationInput, label: string, type: string, autoComplete: string, hint?: string) => (
    <div className="field">
      <label htmlFor={`register-${name}`}>{label}</label>
      <input
        id={`register-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={set(name)}
        disabled={busy}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `register-${name}-error` : undefined}
      />
      {errors[name] ? (
        <p className="field__error" id={`register-${name}-error`}>
          {errors[name]}
        </p>
      ) : (
        hint && <p className="field__hint">{hint}</p>
      )}
    </div>
  );

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {serverError && (
        <ErrorAlert title="Registration Failed">
          <p>{serverError}</p>
        </ErrorAlert>
      )}
      {field('username', 'Username', 'text', 'username')}
      {field('email', 'Email (optional)', 'email', 'email')}
      {field('password', 'Password', 'password', 'new-password', 'At least 8 characters.')}
      {field('confirmPassword', 'Confirm password', 'password', 'new-password')}
      <div className="alert alert--info">
        <Icon name="info" />
        <p>The first user to register gets administrator privileges.</p>
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {/* docs/console-contract.md §2: the submit reads 'Create Admin Account' in every register mode. */}
        {busy ? 'Creating account...' : 'Create Admin Account'}
      </button>
    </form>
  );
}
