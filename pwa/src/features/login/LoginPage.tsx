import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { authApi } from '../../api/auth';
import { auth } from '../../auth/authStore';
import type { FromState } from '../../auth/guards';
import { accountKeys } from './accountKeys';
import { Icon } from '../../components/Icon';
import { LoadingBlock } from '../../components/Spinner';
import { LastKnownView } from '../offline/LastKnownView';
import { ErrorAlert } from './ErrorAlert';
import { SignInForm } from './SignInForm';
import { RegisterForm } from './RegisterForm';
import { OidcSignIn } from './OidcSignIn';

function ConnectionFailed() {
  return (
    <ErrorAlert title="Connection to server failed.">
      <p>Spool did not answer. Check that the server is running, then try again.</p>
      <button type="button" className="btn btn--secondary btn--sm" onClick={() => window.location.reload()}>
        <Icon name="refresh" size={14} /> Retry connection
      </button>
    </ErrorAlert>
  );
}

/** Sign-in, first-user 'Create Admin Account' and registration (docs/console-contract.md §2, §5). */
export function LoginPage() {
  useSignals();
  const location = useLocation();
  const navigate = useNavigate();
  const [mode, setMode] = useState<'signin' | 'register'>('signin');
  const state = auth.value;
  const target = (location.state as FromState | null)?.from ?? '/';
  const starting = state.status === 'unknown' || state.status === 'loading';
  const registration = useQuery({
    queryKey: accountKeys.registration,
    queryFn: authApi.registrationStatus,
    enabled: !starting && !state.connectionFailed && state.loginRequired,
    staleTime: 0,
  });
  const authConfig = useQuery({
    queryKey: accountKeys.config,
    queryFn: authApi.config,
    enabled: !starting && !state.connectionFailed && state.loginRequired,
    staleTime: 0,
  });

  if (!starting && !state.connectionFailed && (state.status === 'authenticated' || !state.loginRequired)) {
    return <Navigate to={target} replace />;
  }

  const firstUser = registration.data?.user_count === 0;
  const config = authConfig.data;
  const passwordLogin = config?.password_login !== false;
  const canRegister = firstUser || registration.data?.registration_enabled === true;
  const showRegister = firstUser || (mode === 'register' && canRegister);
  const done = () => navigate(target, { replace: true });
  const title = firstUser ? 'Create Admin Account' : showRegister ? 'Create an account' : 'Sign in to Spool';

  let body;
  if (starting || (registration.isPending && !state.connectionFailed)) body = <LoadingBlock label="Connecting..." />;
  else if (state.connectionFailed || registration.isError) body = <ConnectionFailed />;
  else if (showRegister) body = <RegisterForm onRegistered={done} />;
  else
    body = (
      <>
        {config && <OidcSignIn config={config} />}
        {passwordLogin && <SignInForm onSignedIn={done} />}
      </>
    );

  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <div className="auth-card__brand">
          <img src="/icons/icon-192.png" alt="" width={56} height={56} />
        </div>
        <h1 id="auth-title" className="auth-card__title">
          {title}
        </h1>
        {firstUser && <p className="auth-card__notice">No users found - please create an admin account</p>}
        {body}
        {!firstUser && canRegister && !state.connectionFailed && (
          <p className="auth-card__switch">
            {showRegister ? (
              <button type="button" className="link-button" onClick={() => setMode('signin')}>
                Already have an account? Sign in
              </button>
            ) : (
              <button type="button" className="link-button" onClick={() => setMode('register')}>
                Need to create an account? Register
              </button>
            )}
          </p>
        )}
      </section>
      {state.connectionFailed && <LastKnownView />}
    </div>
  );
}
