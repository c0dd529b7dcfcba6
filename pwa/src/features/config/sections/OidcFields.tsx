import { LinesField, SecretField, TextField, ToggleField } from '../fields';

/** The OpenID Connect part of the Authentication section's form (docs/configuration.md, `auth.oidc_*`). */
export interface OidcForm {
  password_login: boolean;
  oidc_issuer: string;
  oidc_client_id: string;
  /** Write-only: empty keeps the stored secret. */
  oidc_client_secret: string;
  oidc_scopes: string;
  oidc_role_claim: string;
  oidc_admin_values: string;
  oidc_user_values: string;
  oidc_readonly_values: string;
  oidc_display_name: string;
}

/**
 * Issuer, client and role mapping of OpenID Connect sign-in, and the switch that turns password sign-in off (only
 * offered once an issuer and a client id are filled in; the server keeps the password on until an administrator
 * has signed in through OIDC: docs/security.md "OpenID Connect").
 */
export function OidcFields({
  form,
  set,
  secretSet,
}: {
  form: OidcForm;
  set: <K extends keyof OidcForm>(key: K, value: OidcForm[K]) => void;
  secretSet: boolean;
}) {
  const ready = form.oidc_issuer.trim() !== '' && form.oidc_client_id.trim() !== '';
  return (
    <>
      <h3 className="section-subtitle">OpenID Connect</h3>
      <TextField
        label="OIDC issuer"
        value={form.oidc_issuer}
        onChange={(v) => set('oidc_issuer', v)}
        placeholder="https://auth.example.com/application/o/spool/"
        hint="Your provider's issuer URL (Authentik, Authelia, Keycloak, Google). Empty: OpenID Connect is off."
      />
      <TextField label="OIDC client ID" value={form.oidc_client_id} onChange={(v) => set('oidc_client_id', v)} />
      <SecretField
        label="OIDC client secret"
        value={form.oidc_client_secret}
        onChange={(v) => set('oidc_client_secret', v)}
        isSet={secretSet}
      />
      <TextField
        label="Sign-in button name"
        value={form.oidc_display_name}
        onChange={(v) => set('oidc_display_name', v)}
        hint="The sign-in page shows 'Sign in with' this name."
      />
      <TextField label="Scopes" value={form.oidc_scopes} onChange={(v) => set('oidc_scopes', v)} />
      <TextField
        label="Role claim"
        value={form.oidc_role_claim}
        onChange={(v) => set('oidc_role_claim', v)}
        hint="The claim whose values give the role. A user with none of the values below is refused."
      />
      <LinesField
        label="Administrator values"
        value={form.oidc_admin_values}
        onChange={(v) => set('oidc_admin_values', v)}
      />
      <LinesField label="User values" value={form.oidc_user_values} onChange={(v) => set('oidc_user_values', v)} />
      <LinesField
        label="Read-only values"
        value={form.oidc_readonly_values}
        onChange={(v) => set('oidc_readonly_values', v)}
      />
      <ToggleField
        label="Password sign-in"
        hint={
          ready
            ? 'Off: the sign-in page offers only OpenID Connect, once an administrator has signed in through it.'
            : 'Can be turned off once OpenID Connect is set up.'
        }
        checked={form.password_login}
        disabled={!ready && form.password_login}
        onChange={(v) => set('password_login', v)}
      />
    </>
  );
}
