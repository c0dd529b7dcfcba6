import { useSearchParams } from 'react-router-dom';
import type { AuthConfig } from '../../api/types';
import { ErrorAlert } from './ErrorAlert';

/**
 * The OpenID Connect half of the sign-in page (docs/security.md "OpenID Connect"): 'Sign in with {name}' sends the
 * browser to /api/auth/oidc/login (the server sends it on to the provider); a refused sign-in comes back here with
 * the reason in `oidc_error`.
 */
export function OidcSignIn({ config }: { config: AuthConfig }) {
  const [params] = useSearchParams();
  const error = params.get('oidc_error');
  return (
    <div className="auth-oidc">
      {error && (
        <ErrorAlert title="Sign-in Failed">
          <p>{error}</p>
        </ErrorAlert>
      )}
      {config.oidc && (
        <a className="btn btn--primary auth-oidc__button" href="/api/auth/oidc/login">
          Sign in with {config.oidc.name}
        </a>
      )}
      {config.oidc && config.password_login && <p className="auth-oidc__or muted small">or with your password</p>}
    </div>
  );
}
