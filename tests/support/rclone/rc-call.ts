/**
 * The tests' own client for an rclone remote-control server (`rclone rcd`): what the rclone mount tests ask the rcd
 * to check what Spool told it (options/get, vfs/stats, mount/listmounts, core/pid).
 */
import assert from 'node:assert/strict';

export interface RcServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  user: string;
  pass: string;
}

/** Runs one RC command (POST of the parameters as JSON, basic auth); asserts HTTP 200 and returns the JSON reply. */
export async function rcCall<T = Record<string, unknown>>(
  rc: RcServer,
  command: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  const res = await fetch(`${rc.url}/${command}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: 'Basic ' + Buffer.from(`${rc.user}:${rc.pass}`).toString('base64'),
    },
    body: JSON.stringify(params),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${command}: ${text}`);
  return JSON.parse(text) as T;
}
