import { useState, type FormEvent } from 'react';
import { login } from '../../auth/authStore';
import { ErrorAlert } from './ErrorAlert';

export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(username.trim(), password);
      onSignedIn();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Login failed');
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {error && (
        <ErrorAlert title="Login Failed">
          <p>{error}</p>
        </ErrorAlert>
      )}
      <div className="field">
        <label htmlFor="login-username">Username or email</label>
        <input
          id="login-username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          disabled={busy}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={busy}
        />
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy || !username.trim() || !password}>
        {busy ? 'Signing in...' : 'Sign in'}
      </button>
    </form>
  );
}
