import { constants } from 'node:fs';
import { access, stat, statfs } from 'node:fs/promises';
import type { FolderFacts, RunAs } from './storage-checks.js';

/** Owner, writability and filesystem of `path` as this process sees them (stat, access, statfs). */
export async function readFolderFacts(path: string): Promise<FolderFacts> {
  const owner = await stat(path).then(
    (s) => ({ uid: s.uid, gid: s.gid }),
    () => null,
  );
  const writable = await access(path, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  const fs = await statfs(path).then(
    (s) => ({ type: s.type, freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize }),
    () => null,
  );
  return { path, owner, writable, fs };
}

/** PUID/PGID when the container's init step set them (docs/deployment.md), else this process's ids. */
export function runAsFromEnv(env: NodeJS.ProcessEnv = process.env): RunAs {
  const puid = Number(env.PUID);
  const pgid = Number(env.PGID);
  if (env.PUID && env.PGID && Number.isInteger(puid) && Number.isInteger(pgid))
    return { uid: puid, gid: pgid, source: 'PUID/PGID' };
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, source: 'this process' };
}
