import { FakeNntpServer } from '../support/fake-nntp/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

// Issue 33 items 2 and 3 on the console (docs/nntp.md "Provider states", "Quotas and expiry"): the provider list
// shows each provider's health, its quota use and its expiry; the editor refuses bad values (a negative quota, an
// expiry in the past, a retention of 0, an unknown backbone) with each field's own message under it.
const spool = useSpool();
let fake: FakeNntpServer;
let cookie: string;

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  fake = await FakeNntpServer.start({ username: 'u', password: 'p' });
});
test.afterAll(async () => {
  await fake?.close();
});

test('the provider list shows state, quota use and expiry; bad values are refused with the field message', async ({
  page,
}) => {
  const expires = day(5);
  const added = await apiCall(
    spool().baseURL,
    'POST',
    '/api/providers',
    {
      host: fake.host,
      port: fake.port,
      username: 'u',
      password: 'p',
      quota_period: 'monthly',
      quota_bytes: 50_000_000_000,
      quota_reset_day: 1,
      expires_on: expires,
    },
    cookie,
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  await signIn(page, ADMIN);
  await page.goto('/config/providers');
  const row = page.getByRole('list', { name: 'NNTP providers in priority order' }).getByRole('listitem');
  const state = row.getByLabel(/^State of /);
  await expect(state).toContainText('ok');
  await expect(state).toContainText('Quota: 0 GB of 50 GB this month (0%)');
  await expect(state).toContainText(`Expires ${expires} (in 5 days)`);

  await row.getByRole('button', { name: /^Edit / }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Provider' });
  await dialog.getByLabel('Retention (days)').fill('0');
  await dialog.getByLabel('Backbone').fill('nosuchbackbone');
  await dialog.getByLabel('Quota size (GB)').fill('-5');
  await dialog.getByLabel('Account expires on').fill('2001-01-01');
  await dialog.getByRole('button', { name: 'Save Provider' }).click();
  await expect(dialog.getByText('Retention must be at least 1 day (leave it empty for unlimited)')).toBeVisible();
  await expect(dialog.getByText(/^Unknown backbone/)).toBeVisible();
  await expect(dialog.getByText('The quota must be a positive number of bytes')).toBeVisible();
  await expect(dialog.getByText('The expiry date 2001-01-01 is in the past')).toBeVisible();
  // Nothing was saved: the list still shows the quota and expiry it had.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(state).toContainText('Quota: 0 GB of 50 GB this month (0%)');
  await expect(state).toContainText(`Expires ${expires} (in 5 days)`);
});
