import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import Provider from 'oidc-provider';
import { freePort } from '../support/free-port.js';
import { ADMIN, expect, signIn, test } from './support/fixtures.js';
import { apiCall, startSpool, type Spool } from './support/spool.js';

// OpenID Connect sign-in (docs/security.md "OpenID Connect") in real Chromium against a real OpenID provider
// (`oidc-provider`, started here on loopback with its development login pages), through the built console and the
// real server: a mapped user signs in, one without the mapped claim is refused, a forged or repeated state is
// refused and logged and signs nobody in, and password sign-in goes off only once an administrator came in by OIDC.
let spool: Spool | undefined;
let idp: Server | undefined;
let issuer = '';
let adminCookie = '';
const GROUPS: Record<string, string[]> = {
  alice: ['staff', 'spool-admins'],
  viewer: ['spool-viewers'],
  mallory: ['staff'],
};

test.describe.configure({ mode: 'serial' });
// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use: (url: string | undefined) => Promise<void>) => use(spool?.baseURL) } as never);

async function startProvider(redirectUri: string): Promise<void> {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'spool',
        client_secret: 'spool-client-secret',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username'], groups: ['groups'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, preferred_username: id, groups: GROUPS[id] ?? [] }),
    }),
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
  });
  idp = createServer(provider.callback());
  await new Promise<void>((r) => idp!.listen(port, '127.0.0.1', r));
}

test.beforeAll(async () => {
  spool = await startSpool();
  const reg = await apiCall(spool.baseURL, 'POST', '/api/auth/register', ADMIN);
  expect(reg.status).toBe(200);
  adminCookie = reg.cookie!;
  await startProvider(`${spool.baseURL}/api/auth/oidc/callback`);
  const set = await apiCall(
    spool.baseURL,
    'PATCH',
    '/api/config/auth',
    {
      section: 'auth',
      config: {
        oidc_scopes: 'openid profile groups',
        oidc_role_claim: 'groups',
        oidc_admin_values: ['spool-admins'],
        oidc_readonly_values: ['spool-viewers'],
        oidc_display_name: 'Test IdP',
      },
    },
    adminCookie,
  );
  expect(set.status, JSON.stringify(set.body)).toBe(200);
});

test.afterAll(async () => {
  await spool?.stop();
  idp?.closeAllConnections();
  await new Promise((r) => (idp ? idp.close(r) : r(undefined)));
});

/** Signs in at the provider's development pages (any password), then consents. */
async function throughProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await atProvider(page, login);
}

async function atProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const signedInUser = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/api/user');
    return {
      status: res.status,
      body: (await res.json()) as { data?: { name: string; role: string; provider: string } },
    };
  });

test('an administrator sets issuer, client and secret in the console; the secret is write-only', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/config/auth');
  await page.getByLabel('OIDC issuer').fill(issuer);
  await page.getByLabel('OIDC client ID').fill('spool');
  await page.getByLabel('OIDC client secret').fill('spool-client-secret');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Authentication settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('OIDC issuer')).toHaveValue(issuer);
  await expect(page.getByLabel('OIDC client secret')).toHaveValue('');
  await expect(page.getByText('A password is set. Leave blank to keep it.')).toBeVisible();
  await page.context().clearCookies();

  const config = await apiCall<{ auth: Record<string, unknown> }>(
    spool!.baseURL,
    'GET',
    '/api/config',
    undefined,
    adminCookie,
  );
  expect(config.body.data.auth.oidc_client_secret).toBeUndefined();
  expect(config.body.data.auth.oidc_client_secret_set).toBe(true);
  expect(JSON.stringify(config.body)).not.toContain('spool-client-secret');
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('password sign-in cannot go off before an administrator signed in through OIDC', async () => {
  const off = await apiCall(
    spool!.baseURL,
    'PATCH',
    '/api/config/auth',
    { section: 'auth', config: { password_login: false } },
    adminCookie,
  );
  expect(off.status).toBe(200);
  // Turned off, but no administrator came in by OIDC yet: the password still signs in (no lock-out).
  const login = await apiCall(spool!.baseURL, 'POST', '/api/auth/login', ADMIN);
  expect(login.status, JSON.stringify(login.body)).toBe(200);
});

test('a user with a mapped claim signs in through the provider and lands in the console', async ({ page }) => {
  await page.goto('/login');
  const callback = page.waitForRequest((r) => r.url().includes('/api/auth/oidc/callback'));
  await throughProvider(page, 'alice');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const url = new URL((await callback).url());
  expect(url.searchParams.get('code')).toBeTruthy();
  const me = await signedInUser(page);
  expect(me.body.data).toMatchObject({ name: 'alice', role: 'admin', provider: 'oidc' });
  await page.getByRole('button', { name: 'alice account menu' }).click();
  await expect(page.locator('#user-menu-panel').getByText('via oidc')).toBeVisible();

  // The same callback again (a replayed code and state): refused, logged, and nobody signed in by it.
  const replay = await page.context().browser()!.newContext();
  try {
    const other = await replay.newPage();
    await other.goto(url.href);
    await expect(other.getByText('Sign-in Failed')).toBeVisible();
    await expect(other.getByText(/sign-in state is unknown or was already used/)).toBeVisible();
    expect((await signedInUser(other)).status).toBe(401);
  } finally {
    await replay.close();
  }
});

test('a read-only claim signs in read-only; a user without a mapped claim is refused', async ({ page }) => {
  await page.goto('/login');
  await throughProvider(page, 'viewer');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect((await signedInUser(page)).body.data?.role).toBe('read-only');
  await page.context().clearCookies();

  await page.goto('/login');
  await throughProvider(page, 'mallory');
  await expect(page).toHaveURL(/\/login\?oidc_error=/);
  await expect(page.getByText('Sign-in Failed')).toBeVisible();
  await expect(page.getByText('mallory has no groups value that maps to a Spool role')).toBeVisible();
  expect((await signedInUser(page)).status).toBe(401);
  expect(spool!.output()).toContain('OIDC sign-in refused');
});

test('a forged state is refused with a clear error, logged, and signs nobody in', async ({ page }) => {
  await page.goto('/api/auth/oidc/callback?code=forged-code&state=forged-state');
  await expect(page).toHaveURL(/\/login\?oidc_error=/);
  await expect(page.getByText(/sign-in state is unknown or was already used/)).toBeVisible();
  expect((await signedInUser(page)).status).toBe(401);
  // A real state started in another browser is refused here too (its cookie is not in this browser).
  const started = await fetch(`${spool!.baseURL}/api/auth/oidc/login`, { redirect: 'manual' });
  const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
  await page.goto(`/api/auth/oidc/callback?code=x&state=${state}`);
  await expect(page.getByText(/started in another browser/)).toBeVisible();
  expect((await signedInUser(page)).status).toBe(401);
});

test('a forged nonce is refused: the ID token carries another nonce than the sign-in started with', async ({
  page,
}) => {
  // The sign-in starts in this browser (its state cookie set), but the way to the provider is rewritten: the
  // provider signs an ID token with the forged nonce.
  const started = await page.request.get('/api/auth/oidc/login', { maxRedirects: 0 });
  expect(started.status()).toBe(302);
  const url = new URL(started.headers()['location']!);
  url.searchParams.set('nonce', 'forged-nonce');
  await page.goto(url.href);
  await atProvider(page, 'alice');
  await expect(page).toHaveURL(/\/login\?oidc_error=/);
  await expect(page.getByText('Sign-in Failed')).toBeVisible();
  await expect(page.getByText(/the ID token's nonce does not match this sign-in/)).toBeVisible();
  expect(spool!.output()).toMatch(/OIDC sign-in refused.*nonce/);
  expect((await signedInUser(page)).status).toBe(401);
});

test('with an OIDC administrator, password sign-in is off: the page offers only the provider', async ({ page }) => {
  const login = await apiCall<unknown>(spool!.baseURL, 'POST', '/api/auth/login', ADMIN);
  expect(login.status).toBe(403);
  expect((login.body as { error: { code: string } }).error.code).toBe('PASSWORD_LOGIN_OFF');
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await throughProvider(page, 'alice');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});
