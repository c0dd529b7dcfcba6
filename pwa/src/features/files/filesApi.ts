import { api, ApiError, API_BASE } from '../../api/client';
import type { FileMetaJson } from '../../../../appliance/vfs/file-meta.wire';
import type { StreamLinkJson } from '../../../../appliance/streamlinks/stream-links.wire';

/** docs/console-contract.md §3 File metadata (GET /api/files/info). */
export type FileMetadata = FileMetaJson;

export const filesApi = {
  info: (path: string, signal?: AbortSignal) => api.get<FileMetadata>('/files/info', { query: { path }, signal }),

  /** GET /api/files/export-nzb answers the NZB itself (a blob), or the JSON error envelope. */
  async exportNzb(path: string): Promise<Blob> {
    let res: Response;
    try {
      res = await fetch(`${API_BASE}/files/export-nzb?${new URLSearchParams({ path })}`, {
        credentials: 'same-origin',
      });
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error');
    }
    if (!res.ok) {
      let message = `HTTP ${res.status}: ${res.statusText}`;
      try {
        const body = (await res.json()) as { error?: { message?: string } | string };
        const err = typeof body.error === 'string' ? body.error : body.error?.message;
        if (err) message = err;
      } catch {
        // Not JSON: keep the status line.
      }
      throw new ApiError(res.status, message);
    }
    return res.blob();
  },

  /** docs/console-contract.md §7 "Files": a stream link for one file (administrators). */
  createStreamLink: (path: string) => api.post<StreamLinkJson>('/files/links', { path }),

  /** docs/console-contract.md §7 POST /health/check: Check Now queues the file with priority. */
  checkNow: (file_path: string, source_nzb_path: string | null) =>
    api.post<unknown>('/health/check', { file_path, source_nzb_path: source_nzb_path ?? '', priority: true }),
};

/** Saves a blob under a file name through a temporary anchor. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
