import { FakeNntpServer } from '../support/fake-nntp/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

// A provider whose account allows no more connections than other apps already use ("481 Too many connections" at
// AUTHINFO, the fake NNTP server's connection cap): the provider list says how many it allows of those configured
// (docs/nntp.md, "Connection caps"), and that it is not a wrong password.
const spool = useSpool();
let fake: FakeNntpServer;
let cookie: string;

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  fake = await FakeNntpServer.start({ username: 'u', password: 'p', connectionCap: { max: 0, at: 'auth' } });
});
test.afterAll(async () => {
  await fake?.close();
});

test('a provider at its account connection cap shows "0 of 8 allowed by the provider", not cooling down', async ({
  page,
}) => {
  const added = await apiCall(
    spool().baseURL,
    'POST',
    '/api/providers',
    { host: fake.host, port: fake.port, username: 'u', password: 'p', max_connections: 8 },
    cookie,
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  await signIn(page, ADMIN);
  await page.goto('/config/providers');
  const row = page.getByRole('list', { name: 'NNTP providers in priority order' }).getByRole('listitem');
  // The pool's idle floor opens one connection at once, which the provider refuses over its cap.
  await expect(row).toContainText('0 of 8 allowed by the provider');
  await expect(row).not.toContainText('Cooling down');
  expect(fake.stats.capRefusals).toBeGreaterThan(0);
});
