import type { SpoolConfig } from '../../../api/types';
import { setLoginRequired } from '../../../auth/authStore';
import { Icon } from '../../../components/Icon';
import { LinesField, SelectField, TextField, ToggleField } from '../fields';
import { OidcFields } from './OidcFields';
import { USER_ROLES } from '../../../../../appliance/auth/auth.wire';
import { fromLines, toLines } from '../lines';
import { SectionLayout, type SectionProps } from '../SectionLayout';
import { useSaveConfig, useSectionForm } from '../useSectionForm';

export function AuthSection({ config, readOnly }: SectionProps & { config: SpoolConfig }) {
  const { form, set, dirty, reset } = useSectionForm({
    login_required: config.auth.login_required,
    registration_enabled: config.auth.registration_enabled,
    trusted_origins: toLines(config.auth.trusted_origins),
    trusted_proxies: toLines(config.auth.trusted_proxies),
    forward_user_header: config.auth.forward_user_header,
    forward_groups_header: config.auth.forward_groups_header,
    forward_admin_groups: toLines(config.auth.forward_admin_groups),
    forward_readonly_groups: toLines(config.auth.forward_readonly_groups),
    forward_default_role: config.auth.forward_default_role,
    password_login: config.auth.password_login,
    oidc_issuer: config.auth.oidc_issuer,
    oidc_client_id: config.auth.oidc_client_id,
    oidc_client_secret: '',
    oidc_scopes: config.auth.oidc_scopes,
    oidc_role_claim: config.auth.oidc_role_claim,
    oidc_admin_values: toLines(config.auth.oidc_admin_values),
    oidc_user_values: toLines(config.auth.oidc_user_values),
    oidc_readonly_values: toLines(config.auth.oidc_readonly_values),
    oidc_display_name: config.auth.oidc_display_name,
  });
  const save = useSaveConfig('Authentication settings saved');

  const onSave = () =>
    save.mutate(
      {
        steps: [
          {
            section: 'auth',
            payload: {
              ...form,
              trusted_origins: fromLines(form.trusted_origins),
              trusted_proxies: fromLines(form.trusted_proxies),
              forward_admin_groups: fromLines(form.forward_admin_groups),
              forward_readonly_groups: fromLines(form.forward_readonly_groups),
              oidc_admin_values: fromLines(form.oidc_admin_values),
              oidc_user_values: fromLines(form.oidc_user_values),
              oidc_readonly_values: fromLines(form.oidc_readonly_values),
              // Write-only: a blank field keeps the stored secret.
              oidc_client_secret: form.oidc_client_secret || undefined,
            },
          },
        ],
      },
      { onSuccess: () => setLoginRequired(form.login_required) },
    );

  return (
    <SectionLayout
      title="Authentication"
      description="Who may use this console and whether new accounts can be created."
      onSave={onSave}
      onDiscard={reset}
      dirty={dirty}
      saving={save.isPending}
      readOnly={readOnly}
    >
      <ToggleField
        label="Require login"
        hint="When off, nobody signs in and everyone who can reach Spool can do everything."
        checked={form.login_required}
        onChange={(v) => set('login_required', v)}
      />
      {!form.login_required && (
        <div className="alert alert--warning" role="status">
          <Icon name="warning" />
          <p>Anyone who can reach this server will have full administrator access.</p>
        </div>
      )}
      <ToggleField
        label="Allow registration"
        hint="Let new users create their own accounts. Registration is always open while no user exists."
        checked={form.registration_enabled}
        onChange={(v) => set('registration_enabled', v)}
      />
      <LinesField
        label="Trusted origins"
        value={form.trusted_origins}
        onChange={(v) => set('trusted_origins', v)}
        placeholder="https://spool.example.com"
        hint="Other addresses this console is opened at (scheme, host and port), one per line. Changes sent from any other page are refused."
      />
      <LinesField
        label="Trusted proxies"
        value={form.trusted_proxies}
        onChange={(v) => set('trusted_proxies', v)}
        placeholder="172.18.0.0/16"
        hint="Reverse proxies in front of Spool (addresses or CIDR ranges), one per line. Only their X-Forwarded-For counts, so failed logins lock out one client, not everyone behind the proxy."
      />
      <TextField
        label="Forward auth user header"
        value={form.forward_user_header}
        onChange={(v) => set('forward_user_header', v)}
        placeholder="Remote-User"
        hint="The header your single sign-on proxy (Authelia, Authentik, Traefik, Caddy) names the signed-in user in. Believed only from the trusted proxies above; empty: off."
      />
      <TextField
        label="Forward auth groups header"
        value={form.forward_groups_header}
        onChange={(v) => set('forward_groups_header', v)}
        placeholder="Remote-Groups"
        hint="The header listing the user's groups; empty: roles are not taken from the proxy."
      />
      <LinesField
        label="Administrator groups"
        value={form.forward_admin_groups}
        onChange={(v) => set('forward_admin_groups', v)}
        placeholder="admins"
        hint="Members of these groups are administrators. One per line."
      />
      <LinesField
        label="Read-only groups"
        value={form.forward_readonly_groups}
        onChange={(v) => set('forward_readonly_groups', v)}
        placeholder="viewers"
        hint="Members of these groups (and of no administrator group) see everything and change nothing; anyone else in the groups header is a user. One per line."
      />
      <SelectField
        label="Role of a new forwarded user"
        value={form.forward_default_role}
        options={USER_ROLES}
        labels={{ admin: 'Administrator', user: 'User', 'read-only': 'Read-only' }}
        onChange={(v) => set('forward_default_role', v)}
        hint="Given to a user the proxy names for the first time without a groups header."
      />
      <OidcFields
        form={form}
        set={(key, value) => set(key, value as (typeof form)[typeof key])}
        secretSet={config.auth.oidc_client_secret_set}
      />
    </SectionLayout>
  );
}
