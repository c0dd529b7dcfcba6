/**
 * Removes articles from the test INN the way a provider loses them (takedown, retention): `ctlinnd cancel` as the
 * news user against the instance's own inn.conf. Afterwards INN answers 430 for them, so health checks meet real
 * missing articles, not a fake.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { newsId } from './config.js';
import { INN_BIN } from './install.js';
import type { InnServer } from './server.js';

export function cancelArticles(inn: InnServer, messageIds: string[]): void {
  const conf = path.join(inn.root, 'etc', 'inn.conf');
  for (const id of messageIds) {
    const bracketed = id.startsWith('<') ? id : `<${id}>`;
    const run = spawnSync(`${INN_BIN}/ctlinnd`, ['cancel', bracketed], {
      env: { ...process.env, INNCONF: conf },
      uid: newsId('-u'),
      gid: newsId('-g'),
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (run.status !== 0) throw new Error(`ctlinnd cancel ${bracketed} failed: ${run.stdout}${run.stderr}`);
  }
}
