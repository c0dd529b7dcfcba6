import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importServerOverInn, upload, waitForItem } from '../import/support.js';
import { film } from '../../support/media/film.js';
import { waitUntil } from '../../support/wait.js';

// One NZB posted to the real INN, uploaded through the real HTTP API and imported by the real runner: what the
// app's event bus announced along the way, in order (appliance/events/spool-events.ts).
const env = importServerOverInn();

test('one NZB upload announces its queue statuses in order, the file added and its health record created', async () => {
  const timeline: string[] = [];
  const events = env.srv.app().events;
  const stops = [
    events.on('queue.item.added', (e) => timeline.push(`queue ${e.id} added ${e.status}`)),
    events.on('queue.item.changed', (e) => timeline.push(`queue ${e.id} ${e.previous_status} -> ${e.status}`)),
    events.on('file.added', (e) => timeline.push(`file added ${e.paths.join(',')} by ${e.queue_item_id}`)),
    events.on('health.record.changed', (e) => timeline.push(`health ${e.change} ${e.path} ${e.status}`)),
    events.on('import.progress', (e) => timeline.push(`import ${e.id} ${e.stage}`)),
  ];
  try {
    const posted = await env.inn.postFile('Event.Movie.2024.mkv', film(300_000));
    const up = await upload(env.srv.baseUrl, 'Event.Movie.2024.nzb', posted.nzbXml, { category: 'movies' });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const id = up.body.data!.id;
    const item = await waitForItem(env.srv.baseUrl, id);
    assert.equal(item.status, 'completed', item.error_message ?? '');
    const file = `${item.target_path}/Event.Movie.2024.mkv`;
    const created = `health created ${file} pending`;
    // Health records follow the tree's event asynchronously (their own write): wait for it.
    await waitUntil(created, () => timeline.includes(created), { everyMs: 25 });

    const queue = timeline.filter((line) => line.startsWith(`queue ${id} `));
    assert.deepEqual(queue, [
      `queue ${id} added pending`,
      `queue ${id} pending -> processing`,
      `queue ${id} processing -> completed`,
    ]);
    // Each stage of the import, in order, between its claim and the file it wrote.
    const processing = timeline.indexOf(`queue ${id} pending -> processing`);
    const stages = timeline.filter((line) => line.startsWith(`import ${id} `));
    assert.deepEqual(
      [...new Set(stages)],
      ['parse', 'first_articles', 'probe', 'layouts', 'write'].map((s) => `import ${id} ${s}`),
    );
    assert.ok(timeline.indexOf(`import ${id} parse`) > processing, 'stages follow the claim');
    const added = timeline.indexOf(`file added ${file} by ${id}`);
    assert.ok(timeline.indexOf(`import ${id} write`) < added, 'the write stage comes before the file is added');
    assert.ok(added >= 0, `file.added of ${file}: ${timeline.join(' | ')}`);
    assert.ok(timeline.indexOf(`queue ${id} pending -> processing`) < added, 'the file is added while processing');
    assert.ok(added < timeline.indexOf(`queue ${id} processing -> completed`), 'before the item completes');
    assert.ok(timeline.indexOf(created) > added, `health record created after the file: ${timeline.join(' | ')}`);
  } finally {
    for (const stop of stops) stop();
  }
});
