import { startFakeMediaServer, type FakeMediaServer } from '../support/fake-mediaserver/server.js';
import { apiCall } from './support/spool.js';
import { ADMIN, createAdmin, expect, signIn, test, useSpool } from './support/fixtures.js';

const spool = useSpool();
let cookie: string;
let jellyfin: FakeMediaServer;

test.beforeAll(async () => {
  cookie = await createAdmin(spool());
  jellyfin = await startFakeMediaServer({ kind: 'jellyfin', libraries: ['/media/spool/movies'] });
});
test.afterAll(async () => {
  await jellyfin?.close();
});

test('Radarr/Sonarr → Media Servers: add Jellyfin with a path mapping, save, the token stays write-only, Test lists its libraries', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/config/arrs');
  const form = page.getByRole('form', { name: 'Media Servers' });
  await expect(form.getByText('No media servers configured.')).toBeVisible();
  await form.getByLabel('Tell media servers').check();
  await form.getByRole('button', { name: 'Add Media Server' }).click();
  const card = form.getByRole('article', { name: 'Media server #1' });
  await card.getByLabel('Name').fill('living room');
  await card.getByLabel('Kind').selectOption('jellyfin');
  await card.getByLabel('URL').fill(jellyfin.url);
  await card.getByLabel('Token').fill(jellyfin.token);
  await card.getByRole('button', { name: 'Add mapping' }).click();
  await card.getByLabel('From #1').fill('/mnt/spool');
  await card.getByLabel('To #1').fill('/media/spool');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

  const answer = await apiCall<{ media_servers: { enabled: boolean; servers: Record<string, unknown>[] } }>(
    spool().baseURL,
    'GET',
    '/api/config',
    undefined,
    cookie,
  );
  const saved = answer.body.data.media_servers;
  expect(saved.enabled).toBe(true);
  expect(saved.servers[0]).toMatchObject({
    name: 'living room',
    kind: 'jellyfin',
    token_set: true,
    path_mappings: [{ from: '/mnt/spool', to: '/media/spool' }],
  });
  expect(JSON.stringify(answer.body)).not.toContain(jellyfin.token);

  await page.reload();
  const again = page.getByRole('form', { name: 'Media Servers' }).getByRole('article', { name: 'Media server #1' });
  await expect(again.getByLabel('Token')).toHaveValue('');
  await again.getByRole('button', { name: 'Test' }).click();
  await expect(again.getByRole('status')).toHaveText(
    /fake jellyfin \(Jellyfin 10\.11\.11\)\. Libraries: \/media\/spool\/movies/,
  );
  expect(jellyfin.journal.some((e) => e.path === '/System/Info' && e.status === 200)).toBe(true);
});
