import assert from 'node:assert/strict';
import type { InnServer } from '../../support/inn/server.js';
import { api, upload, waitForItem } from '../import/support.js';
import { waitUntil } from '../../support/wait.js';

export interface HealthJson {
  id: number;
  file_path: string;
  source_nzb_path: string | null;
  status: string;
  last_error: string | null;
  error_details: string | null;
  retry_count: number;
  max_retries: number;
  repair_retry_count: number;
  last_checked: string | null;
  missing_ranges: { message_id: string; start_offset: number; end_offset: number; damaged: boolean }[];
}

/** Posts `bytes` as one file to INN, imports its NZB through the real upload route; returns the file's path. */
export async function importPosted(
  baseUrl: string,
  inn: InnServer,
  name: string,
  bytes: Buffer,
  articleSize: number,
): Promise<{ path: string; ids: string[] }> {
  const posted = await inn.postFile(name, bytes, { articleSize });
  const up = await upload(baseUrl, `${name}.nzb`, posted.nzbXml, { category: 'movies' });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const item = await waitForItem(baseUrl, up.body.data!.id);
  assert.equal(item.status, 'completed', item.error_message ?? '');
  return { path: `${item.target_path}/${name}`, ids: posted.segments.map((s) => s.messageId) };
}

export async function record(baseUrl: string, path: string): Promise<HealthJson> {
  const res = await api<HealthJson>(baseUrl, `/api/health/${encodeURIComponent(path)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data!;
}

/**
 * Queues a priority check (POST /api/health/check) and polls the record until that check has finished: a verdict,
 * or a new last_error (no verdict). `tick` lets a test with a ManualClock move time while it waits.
 */
export async function checkAndWait(
  baseUrl: string,
  path: string,
  tick: () => Promise<void> = async () => undefined,
): Promise<HealthJson> {
  const before = await record(baseUrl, path);
  const res = await api<HealthJson>(baseUrl, '/api/health/check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file_path: path, source_nzb_path: '', priority: true }),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  let last: HealthJson | undefined;
  return waitUntil(
    () => `the check of ${path} to finish: ${JSON.stringify(last)}`,
    async () => {
      await tick();
      const r = (last = await record(baseUrl, path));
      const finished =
        r.status !== 'checking' &&
        (r.last_checked !== before.last_checked || (r.last_error !== null && r.last_error !== before.last_error));
      return finished ? r : undefined;
    },
    { everyMs: 50 },
  );
}

export { Relay } from '../../support/tcp-relay.js';
