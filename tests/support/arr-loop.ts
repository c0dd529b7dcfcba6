/**
 * The real server as Radarr and Sonarr meet it in the loop tests (tests/integration/sabnzbd/arr-loop.test.ts,
 * tests/integration/arrs/repair-loop.test.ts): imports from the test INN as symlinks into `downloads` that point at
 * Spool's own FUSE mount, the SABnzbd API on, one admin whose API key the arr is configured with; and what the arr
 * does on its side (polls the queue, moves the links into its library).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrSabClient, type ArrItem, type ArrSabOptions } from './arr-sab-client.js';
import { removeMountPoint } from './fuse/mount-point.js';
import { innProvider } from './inn/provider.js';
import type { InnServer } from './inn/server.js';
import { api, startServer, type TestServer } from './server.js';
import { waitUntil } from './wait.js';

/** The account registered on the server; its API key is `apiKey`. */
export const LOOP_ADMIN = { username: 'admin', password: 'correct horse' };

export interface SymlinkLoop {
  srv: TestServer;
  /** The admin's API key: what the arr is given for the SABnzbd API. */
  apiKey: string;
  /** Spool's FUSE mount, started: every symlink points into it. */
  mnt: string;
  /** import.import_dir: the job folders of symlinks, one folder per category. */
  downloads: string;
  /** The arr's library (empty): where the tests move the links as the arr does. */
  library: string;
  /** Radarr's download client for this server: its SABnzbd API at /sabnzbd, the admin's key, category movies. */
  radarr(over?: Partial<ArrSabOptions>): ArrSabClient;
  /** Stops the server, detaches the mount if it is still there and removes all the folders above. */
  stop(): Promise<void>;
}

/**
 * Starts that server over `inn` and its mount, all in one temp folder. `importSettings` adds to the import section
 * (symlink strategy, 1 s queue interval); `config` adds whole sections (e.g. `arrs` with the fake arr's instance).
 */
export async function startSymlinkLoop(
  inn: InnServer,
  importSettings: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): Promise<SymlinkLoop> {
  const root = mkdtempSync(join(tmpdir(), 'spool-arr-'));
  const mnt = join(root, 'mnt');
  const downloads = join(root, 'downloads');
  const library = join(root, 'library');
  await mkdir(mnt);
  await mkdir(library);
  const srv = await startServer({
    config: {
      mount_path: mnt,
      providers: [innProvider(inn, { max_connections: 4 })],
      import: {
        queue_processing_interval_seconds: 1,
        import_strategy: 'symlink',
        import_dir: downloads,
        ...importSettings,
      },
      sabnzbd: { enabled: true },
      ...config,
    },
  });
  const stop = async () => {
    await srv.stop();
    await removeMountPoint(mnt);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const admin = await api<{ user: { api_key: string } }>(srv.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: LOOP_ADMIN,
    });
    const apiKey = admin.body.data!.user.api_key;
    const started = await api(srv.baseUrl, '/api/rclone/mount/start', {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const radarr = (over: Partial<ArrSabOptions> = {}) =>
      new ArrSabClient({ baseUrl: srv.baseUrl, urlBase: '/sabnzbd', apiKey, category: 'movies', ...over });
    return { srv, apiKey, mnt, downloads, library, radarr, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls the arr's view of queue and history, as the arr does, until the item reaches one of `statuses`. */
export async function pollArrUntil(arr: ArrSabClient, id: string, statuses: string[]): Promise<ArrItem> {
  let last: ArrItem | undefined;
  return waitUntil(
    () => `${id} to be ${statuses.join(' or ')} (still ${last?.status ?? 'absent'})`,
    async () => {
      last = (await arr.getItems()).find((i) => i.downloadId === id);
      return last && statuses.includes(last.status) ? last : undefined;
    },
    { everyMs: 200 },
  );
}

/**
 * What the arr does on import with a folder of symlinks: a new symlink in `dest` to the same target for each, then
 * the old one unlinked. Returns the new links.
 */
export async function arrMoveInto(folder: string, dest: string): Promise<string[]> {
  const moved: string[] = [];
  for (const name of await readdir(folder)) {
    const from = join(folder, name);
    if (!(await lstat(from)).isSymbolicLink()) continue;
    const to = join(dest, name);
    await symlink(await readlink(from), to);
    await unlink(from);
    moved.push(to);
  }
  return moved;
}
