/**
 * The manual re-probe (docs/nntp.md "Provider states"; issue 33 item 3) through its route: provider "p" (first in
 * priority) is a server that refuses its password (a fault-injecting NNTP server), so the first read finds it
 * blocked for auth_failed and the film is read from "a" (the real INN). `POST /api/providers/p/reprobe` answers that
 * it probes; once the account accepts the password, the asked-for probe, not the automatic one (an account block is
 * re-probed only 15 minutes on), brings "p" back to ok.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PoolMetrics } from '../../../appliance/nntp/index.js';
import type { ProviderReprobeResponse } from '../../../appliance/providers/quota.wire.js';
import { innProvider } from '../../support/inn/provider.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { film } from '../../support/media/film.js';
import { api, startServer, type TestServer } from '../../support/server.js';
import { FakeNntpServer } from '../../support/fake-nntp/server.js';
import { waitUntil } from '../../support/wait.js';
import { davGet, upload, waitForItem } from '../import/support.js';

let inn: InnServer;
let account: FakeNntpServer;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  account = await FakeNntpServer.start({ username: 'u', password: 'another' });
  srv = await startServer({
    config: {
      auth: { login_required: false },
      providers: [
        innProvider(inn, { id: 'p', host: '127.0.0.1', port: account.port, username: 'u', password: 'secret' }),
        innProvider(inn, { id: 'a', max_connections: 4 }),
      ],
      import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
    },
  });
});
after(async () => {
  await srv?.stop();
  await account?.close();
});

const providerP = async () =>
  (await api<PoolMetrics>(srv.baseUrl, '/api/system/pool/metrics')).body.data!.providers.find((x) => x.id === 'p')!;
const reprobe = (id: string) =>
  api<ProviderReprobeResponse>(srv.baseUrl, `/api/providers/${encodeURIComponent(id)}/reprobe`, { method: 'POST' });

test('a provider blocked for its account is re-probed when asked, and comes back once it answers', async () => {
  const name = 'Reprobe.Film.2024.mkv';
  const posted = await inn.postFile(name, film(8 * 50_000, name), { articleSize: 50_000 });
  const up = await upload(srv.baseUrl, 'Reprobe.Film.2024.nzb', posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');

  const read = await davGet(srv.baseUrl, `${item.target_path}/${name}`);
  assert.equal(read.status, 200);
  await waitUntil('"p" is blocked for its password', async () => (await providerP()).health === 'blocked');
  assert.equal((await providerP()).reason, 'auth_failed');

  const unknown = await reprobe('nope');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error?.code, 'NO_SUCH_RECORD');
  const healthy = await reprobe('a');
  assert.equal(healthy.status, 200);
  assert.equal(healthy.body.data!.probing, false, 'a provider that is not down is not probed');

  // Still refused: the probe is made, fails, and "p" stays blocked for the same reason.
  const refused = await reprobe('p');
  assert.equal(refused.status, 200);
  assert.deepEqual([refused.body.data!.probing, refused.body.data!.reason], [true, 'auth_failed']);
  const port = account.port;
  await account.close();
  account = await FakeNntpServer.start({ username: 'u', password: 'secret' }, port);
  assert.equal((await providerP()).health, 'blocked', 'nothing brought it back on its own');
  await waitUntil('the asked-for probe brings "p" back', async () => {
    const asked = await reprobe('p');
    assert.equal(asked.status, 200);
    return (await providerP()).health === 'ok';
  });
  assert.equal((await providerP()).reason, null);
});
