/**
 * Damages articles on the test INN's disk the way a provider's storage rots: a few bytes of the stored yEnc body
 * change, the length and the headers stay. INN still answers STAT 223 and serves the body; only decoding it shows
 * the CRC mismatch. Finds each article's file through INN's own history (grephistory, then sm -i for the
 * group and number of the tradspool file).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INN_BIN } from './install.js';
import type { InnServer } from './server.js';

export function articleFile(inn: InnServer, messageId: string): string {
  const env = { ...process.env, INNCONF: path.join(inn.root, 'etc', 'inn.conf') };
  const bracketed = messageId.startsWith('<') ? messageId : `<${messageId}>`;
  const token = execFileSync(`${INN_BIN}/grephistory`, [bracketed], { env, encoding: 'utf8' }).trim();
  const where = execFileSync(`${INN_BIN}/sm`, ['-i', token], { env, encoding: 'utf8' }).trim();
  const m = /^([^:]+):\s*(\d+)$/.exec(where);
  if (!m) throw new Error(`sm -i ${token} answered ${where}`);
  return path.join(inn.root, 'spool', 'articles', ...m[1]!.split('.'), m[2]!);
}

/** Changes a few body bytes of each article in place (same length, still valid yEnc, wrong CRC). */
export function damageArticles(inn: InnServer, messageIds: string[]): void {
  for (const id of messageIds) {
    const file = articleFile(inn, id);
    const bytes = readFileSync(file);
    const bodyAt = bytes.indexOf('\n\n') >= 0 ? bytes.indexOf('\n\n') + 2 : bytes.indexOf('\r\n\r\n') + 4;
    let changed = 0;
    // Letters in the middle of data lines: swapping one for another keeps the line valid yEnc.
    for (let i = bodyAt + Math.floor((bytes.length - bodyAt) / 2); i < bytes.length && changed < 8; i += 97) {
      const c = bytes[i]!;
      const prev = bytes[i - 1]!;
      if (((c >= 0x61 && c < 0x7a) || (c >= 0x41 && c < 0x5a)) && prev !== 0x3d && prev !== 0x0a) {
        bytes[i] = c + 1;
        changed++;
      }
    }
    if (changed === 0) throw new Error(`no byte of ${id} could be changed`);
    writeFileSync(file, bytes);
  }
}
