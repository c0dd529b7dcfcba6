import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildNzb } from '../../support/inn/poster.js';
import { ffprobeDuration, makeMedia, type MediaKind } from '../../support/media/ffmpeg.js';
import type { StreamsHistoryResponse } from '../../../appliance/streams/streams.wire.js';
import { api, davGet, importServerOverInn, upload, waitForItem } from './support.js';

// A real Matroska and a real MP4 (moov after the media data, articles past the first) posted to INN and imported:
// each gets its duration from its container, seen as the media bitrate of a read through the Streams view.

const env = importServerOverInn();

async function importMedia(name: string, bytes: Buffer) {
  // small articles: the MP4's moov lies articles past the head the import fetches first
  const posted = await env.inn.postFile(name, bytes, { articleSize: 50_000 });
  const up = await upload(env.srv.baseUrl, `${name}.nzb`, buildNzb([posted], env.inn.group, 'p <p@t>'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(env.srv.baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return `${item.target_path}/${name}`;
}

for (const [kind, name] of [
  ['mkv', 'Duration.Movie.2024.mkv'],
  ['mp4-tail', 'Duration.Clip.2024.mp4'],
] as [MediaKind, string][]) {
  test(`an imported ${kind} carries its duration: a read shows size / duration as the media bitrate`, async () => {
    const bytes = makeMedia(kind, 20, { fps: 25, size: '320x240' });
    assert.ok(bytes.length > 150_000, 'several articles');
    const path = await importMedia(name, bytes);
    const got = await davGet(env.srv.baseUrl, path);
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(bytes));
    const { body } = await api<StreamsHistoryResponse>(env.srv.baseUrl, '/api/streams/history');
    const read = body.data!.streams.find((s) => s.path === path);
    assert.ok(read, 'the read is in the history');
    const expected = ffprobeDuration(bytes, kind);
    assert.ok(
      read.duration_seconds !== null && Math.abs(read.duration_seconds - expected) < 0.05,
      `${read.duration_seconds}`,
    );
    assert.equal(read.media_bitrate_bps, Math.round(bytes.length / read.duration_seconds));
  });
}

test('a Matroska file whose headers say nothing readable imports as before, without a duration', async () => {
  // the EBML magic (so the import's container check passes), then no element that parses
  const bytes = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(120_000, 7)]);
  const path = await importMedia('Not.Really.2024.mkv', bytes);
  assert.equal((await davGet(env.srv.baseUrl, path)).status, 200);
  const { body } = await api<StreamsHistoryResponse>(env.srv.baseUrl, '/api/streams/history');
  const read = body.data!.streams.find((s) => s.path === path);
  assert.equal(read?.duration_seconds, null);
  assert.equal(read?.media_bitrate_bps, null);
});
