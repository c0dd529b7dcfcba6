import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { cancelArticles } from '../../support/inn/cancel.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { checkAndWait } from '../health/support.js';
import { adminApiKey, api, innProvider, startImportServer, upload, waitForItem, type TestServer } from './support.js';

// The checks before the write (docs/import.md) on the real server with INN: a fake release (an .mkv that is an
// executable) fails its import with the reason, and SABnzbd's history says Failed with it, so the arr blocklists it.
// The check of media headers runs at its default (import.verify_media_headers on): nothing here turns it on.
let inn: InnServer;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  srv = await startImportServer(inn, {
    providers: [innProvider(inn)],
    sabnzbd: { enabled: true },
    health: { enabled: true, auto_repair_enabled: false, check_interval_seconds: 86_400, max_retries: 0 },
    import: { queue_processing_interval_seconds: 1, segment_sample_percentage: 100 },
  });
});
after(async () => {
  await srv?.stop();
});

async function importBytes(name: string, bytes: Buffer) {
  const posted = await inn.postFile(name, bytes, { articleSize: 20_000 });
  const up = await upload(srv.baseUrl, `${name}.nzb`, posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  return waitForItem(srv.baseUrl, up.body.data!.id);
}

test('an .mkv that is an executable fails at import with the reason; SABnzbd history says Failed with it', async () => {
  const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), randomBytes(50_000)]);
  const item = await importBytes('Fake.Film.2024.1080p.mkv', exe);
  assert.equal(item.status, 'failed');
  assert.equal(
    item.error_message,
    'Fake.Film.2024.1080p.mkv: content does not match .mkv (found a Windows executable (MZ))',
  );
  assert.equal((item as { error_code?: string | null }).error_code, 'CONTENT_MISMATCH');
  const key = await adminApiKey(srv);
  const history = (await (await fetch(`${srv.baseUrl}/sabnzbd/api?mode=history&output=json&apikey=${key}`)).json()) as {
    history: { slots: { name: string; status: string; fail_message: string }[] };
  };
  assert.ok(history.history, JSON.stringify(history));
  const slot = history.history.slots.find((s) => s.name.startsWith('Fake.Film.2024.1080p'));
  assert.equal(slot?.status, 'Failed');
  assert.match(slot?.fail_message ?? '', /content does not match \.mkv \(found a Windows executable \(MZ\)\)/);
});

test('random bytes named .mkv fail; a real Matroska head imports', async () => {
  const noise = await importBytes(
    'Noise.Film.2024.mkv',
    Buffer.concat([Buffer.from([0xde, 0xad]), randomBytes(30_000)]),
  );
  assert.equal(noise.status, 'failed');
  assert.match(noise.error_message ?? '', /content does not match \.mkv \(found unknown bytes de ad/);
  const real = Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
    randomBytes(30_000),
  ]);
  const ok = await importBytes('Real.Film.2024.mkv', real);
  assert.equal(ok.status, 'completed', ok.error_message ?? '');
});

test('a release a check found broken is refused when it comes again, in one step and with the reason', async () => {
  const head = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
  const posted = await inn.postFile('Looping.Film.2023.mkv', Buffer.concat([head, randomBytes(60_000)]), {
    articleSize: 20_000,
  });
  const first = await upload(srv.baseUrl, 'Looping.Film.2023.nzb', posted.nzbXml, { category: 'movies' });
  const done = await waitForItem(srv.baseUrl, first.body.data!.id);
  assert.equal(done.status, 'completed', done.error_message ?? '');
  // The last article: a check STATs the first and the last always, the others by sample (health/check-plan.ts).
  cancelArticles(inn, [posted.messageIds[3]!]);
  const verdict = await checkAndWait(srv.baseUrl, `${done.target_path}/Looping.Film.2023.mkv`);
  assert.equal(verdict.status, 'corrupted');
  // The arr grabs the same release again (same NZB, same message-ids) under another name.
  const again = await upload(srv.baseUrl, 'Looping.Film.2023.REPACK.nzb', posted.nzbXml, { category: 'movies' });
  const refused = await waitForItem(srv.baseUrl, again.body.data!.id);
  assert.equal(refused.status, 'failed');
  assert.equal(
    (refused as { error_code?: string | null }).error_code,
    'KNOWN_BROKEN_RELEASE',
    refused.error_message ?? '',
  );
  assert.match(
    refused.error_message ?? '',
    /This release was found broken before \(\/complete\/movies\/Looping\.Film\.2023\/Looping\.Film\.2023\.mkv, .*1 missing of 4 articles\)/,
  );
});

test('import.verify_media_headers off (changed live): random bytes named .mkv import; back on, they fail again', async () => {
  const setHeaders = async (on: boolean) => {
    const patch = await api(srv.baseUrl, '/api/config/import', {
      method: 'PATCH',
      json: { section: 'import', config: { verify_media_headers: on } },
    });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
  };
  const noise = Buffer.concat([Buffer.from([0xde, 0xad]), randomBytes(30_000)]);
  await setHeaders(false);
  try {
    const off = await importBytes('Unchecked.Film.2024.mkv', noise);
    assert.equal(off.status, 'completed', off.error_message ?? '');
  } finally {
    await setHeaders(true);
  }
  const on = await importBytes('Checked.Again.Film.2024.mkv', noise);
  assert.equal(on.status, 'failed');
  assert.match(on.error_message ?? '', /content does not match \.mkv/);
});
