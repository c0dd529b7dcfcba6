import { createAuth as createAuthDomain, type AuthDomain, type AuthSettings } from '../auth/index.js';
import type { ConfigService } from '../config/index.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';

/** Users, sessions, API keys and the Gatekeeper, on the users' and sessions' ports, with the settings read live. */
export function createAuth({ stores, config, clock, logger }: AppCore): Built<AuthDomain> {
  const auth = createAuthDomain({
    users: stores.users,
    sessions: stores.sessions,
    apiKeys: stores.apiKeys,
    settings: () => authSettings(config),
    logger: logger.child('auth'),
    rateLimit: { now: clock.now },
  });
  return built(auth, () => auth.close());
}

function authSettings(config: ConfigService): AuthSettings {
  const c = config.get();
  return {
    loginRequired: c.auth.login_required,
    registrationEnabled: c.auth.registration_enabled,
    webdavUser: c.webdav.user,
    webdavPassword: c.webdav.password,
    forwardUserHeader: c.auth.forward_user_header,
    forwardGroupsHeader: c.auth.forward_groups_header,
    forwardAdminGroups: c.auth.forward_admin_groups,
    forwardReadonlyGroups: c.auth.forward_readonly_groups,
    forwardDefaultRole: c.auth.forward_default_role,
    passwordLogin: c.auth.password_login,
    oidc: {
      issuer: c.auth.oidc_issuer,
      clientId: c.auth.oidc_client_id,
      clientSecret: c.auth.oidc_client_secret,
      scopes: c.auth.oidc_scopes,
      roleClaim: c.auth.oidc_role_claim,
      adminValues: c.auth.oidc_admin_values,
      userValues: c.auth.oidc_user_values,
      readonlyValues: c.auth.oidc_readonly_values,
      displayName: c.auth.oidc_display_name,
    },
    externalBaseUrl: c.import.strm_base_url,
  };
}
