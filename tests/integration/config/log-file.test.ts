/** `log.*` on the real server: the file is written under the data dir, and a saved level applies at once. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, startServer, type TestServer } from '../../support/server.js';
import { waitUntil } from '../../support/wait.js';

let srv: TestServer;
before(async () => {
  srv = await startServer({
    config: { auth: { login_required: false }, log: { file: 'logs/spool.log', level: 'warn' } },
  });
});
after(() => srv?.stop());

const fileLines = () => {
  try {
    return readFileSync(join(srv.dataDir, 'logs', 'spool.log'), 'utf8');
  } catch {
    return '';
  }
};
/** The file is written asynchronously: wait until it holds `msg`. */
async function fileGets(msg: string): Promise<void> {
  await waitUntil(`the log file to hold ${msg}`, () => fileLines().includes(`"msg":"${msg}"`), { everyMs: 50 });
  assert.match(fileLines(), new RegExp(`"msg":"${msg}"`));
}

test('log.file and log.level are read: lines at the level reach the file; a PATCH of the level applies live', async () => {
  const log = srv.app().logger.child('probe');
  log.info('info before');
  log.warn('warn before');
  await fileGets('warn before');
  assert.doesNotMatch(fileLines(), /info before/);
  const patched = await api(srv.baseUrl, '/api/config/log', {
    method: 'PATCH',
    json: { section: 'log', config: { level: 'info' } },
  });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  log.info('info after');
  await fileGets('info after');
});
