import { Link } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { auth } from './authStore';
import { Icon } from '../components/Icon';

export function AccessDenied() {
  useSignals();
  const user = auth.value.user;
  return (
    <section className="access-denied" aria-labelledby="access-denied-title">
      <div className="access-denied__icon">
        <Icon name="lock" size={32} />
      </div>
      <h2 id="access-denied-title">Access Denied</h2>
      <p>You need administrator privileges to access this page.</p>
      {user && (
        <p className="muted">
          Signed in as <strong>{user.name}</strong>
          {user.provider ? ` via ${user.provider}` : ''}
        </p>
      )}
      <Link to="/" className="btn btn--secondary">
        Back to Dashboard
      </Link>
    </section>
  );
}
