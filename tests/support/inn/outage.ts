/**
 * A whole INN going away and coming back, for a test's own instance (never the shared one under DEFAULT_INN_ROOT:
 * other test files and other runs read from it). innd forks one nnrpd per reader connection, and those readers
 * outlive innd: with innd stopped, a reader connected before still answered DATE. So `stopInnEntirely` signals
 * innd's whole process group (innd runs detached, as its group's leader, and its readers stay in that group):
 * connections are cut and new ones refused, as when a provider's server goes down. `startInnAgain` starts innd
 * again on the port it had, as the same provider coming back.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { alive, readState, spawnAsNews, waitUntilReady } from './daemon.js';
import { INN_BIN } from './install.js';
import { greets } from './server.js';

const stateFile = (root: string) => path.join(root, 'state.json');

/** True while any process of the group led by `pid` is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops innd of `root` and every reader it forked: SIGTERM to the group, SIGKILL to what is left after 5 s. */
export async function stopInnEntirely(root: string): Promise<void> {
  const state = readState(stateFile(root));
  if (!state || !groupAlive(state.pid)) return;
  process.kill(-state.pid, 'SIGTERM');
  for (let i = 0; i < 100 && groupAlive(state.pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(state.pid)) process.kill(-state.pid, 'SIGKILL');
  while (groupAlive(state.pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Starts innd of `root` again on the port it had (after stopInnEntirely); resolves once it greets. */
export async function startInnAgain(root: string): Promise<void> {
  const state = readState(stateFile(root));
  if (!state) throw new Error(`no INN was started under ${root}`);
  if (alive(state.pid)) return;
  const pid = spawnAsNews(`${INN_BIN}/innd`, ['-f'], path.join(root, 'etc', 'inn.conf'));
  await waitUntilReady(
    pid,
    () => greets(state.port),
    () => `innd did not start again on 127.0.0.1:${state.port}; see ${path.join(root, 'log')}`,
  );
  writeFileSync(stateFile(root), JSON.stringify({ pid, port: state.port }));
}
