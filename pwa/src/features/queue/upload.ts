import { API_BASE } from '../../api/client';

/**
 * POST /queue/upload as multipart (the JSON client cannot carry a file). docs/console-contract.md §8: a failure shows the server's
 * message, else 'Upload failed: {text}'. Resolves to the new queue item's id.
 */
export async function uploadNzb(file: File): Promise<number> {
  const form = new FormData();
  form.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch(`${API_BASE}/queue/upload`, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch (err) {
    throw new Error(`Upload failed: ${err instanceof Error ? err.message : 'network error'}`);
  }
  let body: { success?: boolean; data?: { id?: number }; error?: { message?: string } | string } | undefined;
  try {
    body = (await res.json()) as typeof body;
  } catch {
    body = undefined;
  }
  const serverMessage = typeof body?.error === 'string' ? body.error : body?.error?.message;
  if (!res.ok || !body?.success || typeof body.data?.id !== 'number') {
    throw new Error(serverMessage || `Upload failed: ${res.statusText || `HTTP ${res.status}`}`);
  }
  return body.data.id;
}
