import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildNzb } from '../../support/inn/poster.js';
import { ensureInn, type InnServer } from '../../support/inn/server.js';
import { startServer } from '../../support/server.js';
import { innProvider, upload, waitForItem, type TestServer } from './support.js';
import { film } from '../../support/media/film.js';

// The availability probe at its default settings (no import section in config.yaml): an incomplete release must
// fail its import before the arr is told Completed, not during playback.
let inn: InnServer;
let srv: TestServer;

before(async () => {
  inn = await ensureInn();
  srv = await startServer({ config: { auth: { login_required: false }, providers: [innProvider(inn)] } });
});
after(() => srv?.stop());

test('default probe: a 28-article file missing 2 or 4 articles fails its import', async () => {
  const posted = await inn.postFile('Probe.Default.mkv', film(28 * 20_000), { articleSize: 20_000 });
  assert.equal(posted.segments.length, 28);
  for (const holes of [
    [9, 17],
    [3, 11, 19, 25],
  ]) {
    const damaged = {
      ...posted,
      segments: posted.segments.map((s, i) =>
        holes.includes(i) ? { ...s, messageId: `gone-${i}-${s.messageId}` } : s,
      ),
    };
    const up = await upload(
      srv.baseUrl,
      `Probe.Default.${holes.length}.nzb`,
      buildNzb([damaged], inn.group, 'p <p@t>'),
    );
    const item = await waitForItem(srv.baseUrl, up.body.data!.id);
    assert.equal(item.status, 'failed', `${holes.length} of 28 missing imported as ${item.status}`);
    assert.match(item.error_message ?? '', new RegExp(`Probe\\.Default\\.mkv: ${holes.length} of 28 articles missing`));
  }
});

test('a first article damaged on every provider fails at once as damage, not as an unreachable provider', async () => {
  const posted = await inn.postFile('Damaged.First.mkv', film(5 * 20_000), {
    articleSize: 20_000,
    damagedParts: [1],
  });
  const up = await upload(srv.baseUrl, 'Damaged.First.nzb', posted.nzbXml);
  const item = await waitForItem(srv.baseUrl, up.body.data!.id, ['completed', 'failed', 'retrying']);
  assert.equal(item.status, 'failed', `${item.status}: ${item.error_message}`);
  assert.equal(item.retry_count, 0);
  assert.match(item.error_message ?? '', /damaged on every provider/);
  assert.match(item.error_message ?? '', new RegExp(posted.segments[0]!.messageId.replace(/[.]/g, '\\.')));
  assert.doesNotMatch(item.error_message ?? '', /could not be reached/);
});

test('a split set with a missing piece says so on the queue item, not only in the log', async () => {
  const whole = film(3 * 200_000);
  const pieces = [whole.subarray(0, 200_000), whole.subarray(400_000)];
  const posted = [
    await inn.postFile('Gap.Show.S01E01.mkv.001', pieces[0]!, { articleSize: 100_000 }),
    await inn.postFile('Gap.Show.S01E01.mkv.003', pieces[1]!, { articleSize: 100_000 }),
  ];
  const up = await upload(srv.baseUrl, 'Gap.Show.S01E01.nzb', buildNzb(posted, inn.group, 'p <p@t>'));
  const item = (await waitForItem(srv.baseUrl, up.body.data!.id)) as { status: string; warning_message?: string };
  assert.equal(item.status, 'completed');
  assert.match(item.warning_message ?? '', /Gap\.Show\.S01E01\.mkv is missing piece\(s\) 2/);
});
