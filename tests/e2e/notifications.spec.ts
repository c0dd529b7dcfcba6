import { startReceiver } from '../support/notify-receiver.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();
let cookie: string;
let hook: Awaited<ReturnType<typeof startReceiver>>;

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  hook = await startReceiver([200]);
});
test.afterAll(async () => {
  await hook?.close();
});

test('System → Notifications: add a target, save, the token stays write-only, Test reaches the receiver', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/system');
  const form = page.getByRole('form', { name: 'Notifications' });
  await expect(form.getByRole('heading', { level: 2, name: 'Notifications' })).toBeVisible();
  await expect(form.getByText('No notification targets configured.')).toBeVisible();

  await form.getByLabel('Send notifications').check();
  await form.getByRole('button', { name: 'Add Target' }).click();
  const target = form.getByRole('article', { name: 'Notification target #1' });
  await target.getByLabel('Name').fill('alerts');
  await target.getByLabel('Type').selectOption('ntfy');
  await target.getByLabel('URL').fill(hook.url('/spool-topic'));
  await target.getByLabel('Token').fill('tk_e2e_secret');
  await target.getByLabel('Disk full').uncheck();
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

  // Saved: the server keeps the token and answers only that one is set.
  const answer = await apiCall<{ notifications: { enabled: boolean; targets: Record<string, unknown>[] } }>(
    spool().baseURL,
    'GET',
    '/api/config',
    undefined,
    cookie,
  );
  const saved = answer.body.data;
  expect(saved.notifications.enabled).toBe(true);
  expect(saved.notifications.targets).toHaveLength(1);
  expect(saved.notifications.targets[0]).toMatchObject({ name: 'alerts', type: 'ntfy', token_set: true });
  expect(saved.notifications.targets[0]).not.toHaveProperty('token');
  expect(saved.notifications.targets[0]!.events).not.toContain('disk_full');
  expect(JSON.stringify(saved)).not.toContain('tk_e2e_secret');

  // After a reload the token field is empty, with the stored-token hint.
  await page.reload();
  const again = page
    .getByRole('form', { name: 'Notifications' })
    .getByRole('article', { name: 'Notification target #1' });
  await expect(again.getByLabel('Token')).toHaveValue('');
  await expect(again.getByText('A token is stored. Leave blank to keep it.')).toBeVisible();

  // Test: the stored token goes out to the receiver, and the card shows the success.
  await again.getByRole('button', { name: 'Test' }).click();
  await expect(again.getByRole('status')).toHaveText(/Test notification sent/);
  const [got] = await hook.waitFor(1);
  expect(got!.path).toBe('/spool-topic');
  expect(got!.headers.authorization).toBe('Bearer tk_e2e_secret');
  expect(got!.headers.title).toBe('Spool test notification');
});
