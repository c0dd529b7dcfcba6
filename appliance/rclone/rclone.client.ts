/** rclone's remote-control API (`rclone rcd`): every call is a POST of JSON to <url>/<command>. */
export interface RcSettings {
  url: string;
  user: string;
  pass: string;
  timeoutMs?: number;
}

export class RcloneClient {
  constructor(private readonly settings: RcSettings) {}

  async call<T = unknown>(command: string, params: Record<string, unknown> = {}): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.settings.user)
      headers.Authorization = 'Basic ' + Buffer.from(`${this.settings.user}:${this.settings.pass}`).toString('base64');
    const res = await fetch(`${this.settings.url.replace(/\/+$/, '')}/${command}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(this.settings.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let msg = text;
      try {
        msg = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        /* not JSON: keep the text */
      }
      throw new Error(`rclone ${command} failed (HTTP ${res.status}): ${msg.slice(0, 300)}`);
    }
    return (text ? JSON.parse(text) : {}) as T;
  }

  /** Cheapest authenticated call: proves the URL, the port and the credentials. */
  version(): Promise<{ version: string }> {
    return this.call('core/version');
  }

  /**
   * Tells an rclone mount of our WebDAV that a directory changed (after an import or delete). `fs` names the VFS
   * when the rcd runs more than one (Spool's own rclone mount names it); empty lets a lone VFS answer.
   */
  refresh(dir: string, fs = ''): Promise<unknown> {
    // `recursive` as a string: rclone 1.60 refuses a JSON bool there ("value must be string"); later ones take both.
    return this.call('vfs/refresh', { ...(fs ? { fs } : {}), dir: dir.replace(/^\/+/, ''), recursive: 'false' });
  }
}

/** The RC URL from config: rc_url wins; else loopback on rc_port. */
export function rcUrl(c: { rc_url: string; rc_port: number }): string {
  return c.rc_url.trim() || `http://127.0.0.1:${c.rc_port}`;
}
