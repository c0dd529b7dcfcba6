import { expect } from '@playwright/test';
import { apiCall } from './spool.js';
import { waitUntil } from '../../support/wait.js';

/** POST /api/queue/upload (category movies), then poll the item until it completes (bounded); its target path. */
export async function importNzb(baseURL: string, cookie: string, name: string, xml: string): Promise<string> {
  const form = new FormData();
  form.append('category', 'movies');
  form.append('file', new Blob([xml]), name);
  const res = await fetch(`${baseURL}/api/queue/upload`, { method: 'POST', body: form, headers: { Cookie: cookie } });
  const body = (await res.json()) as { data: { id: number } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  let status = '';
  return waitUntil(
    () => `the import of ${name} (still ${status})`,
    async () => {
      const item = await apiCall<{ status: string; target_path: string; error_message: string }>(
        baseURL,
        'GET',
        `/api/queue/${body.data.id}`,
        undefined,
        cookie,
      );
      status = item.body.data.status;
      if (status === 'failed') throw new Error(`import failed: ${item.body.data.error_message}`);
      return status === 'completed' ? item.body.data.target_path : undefined;
    },
    { everyMs: 200 },
  );
}
