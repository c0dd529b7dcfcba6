/**
 * Writes a private INN instance under one root directory: its own inn.conf (loopback port, no size limits),
 * a readers.conf that requires AUTHINFO (ckpasswd against a passwd file), one test newsgroup, empty history.
 * Nothing in /etc/news is changed; innd finds this instance through the INNCONF environment variable.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INN_BIN } from './install.js';

export interface InnLayout {
  root: string;
  conf: string;
  port: number;
  username: string;
  password: string;
  group: string;
}

const DIRS = [
  'etc',
  'db',
  'spool',
  'spool/articles',
  'spool/overview',
  'spool/incoming',
  'spool/incoming/tmp',
  'spool/outgoing',
  'spool/archive',
  'run',
  'log',
  'http',
];

export function writeInnInstance(l: InnLayout): void {
  for (const d of DIRS) mkdirSync(path.join(l.root, d), { recursive: true });
  const etc = path.join(l.root, 'etc');
  if (!existsSync(path.join(etc, 'control.ctl'))) cpSync('/etc/news', etc, { recursive: true });
  const p = (d: string) => path.join(l.root, d);
  const overrides: Record<string, string> = {
    domain: 'localdomain',
    pathhost: 'spool-test.localdomain',
    port: String(l.port),
    bindaddress: '127.0.0.1',
    bindaddress6: 'none',
    maxartsize: '0',
    localmaxartsize: '0',
    nnrpdpostport: String(l.port),
    nnrpdloadlimit: '0',
    maxconnections: '0',
    artcutoff: '0',
    doinnwatch: 'false',
    pgpverify: 'false',
    status: '0',
    timer: '0',
    logstatus: 'false',
    nicekids: '0',
    pathetc: etc,
    pathdb: p('db'),
    pathspool: p('spool'),
    patharticles: p('spool/articles'),
    pathoverview: p('spool/overview'),
    pathincoming: p('spool/incoming'),
    pathtmp: p('spool/incoming/tmp'),
    pathoutgoing: p('spool/outgoing'),
    patharchive: p('spool/archive'),
    pathrun: p('run'),
    pathlog: p('log'),
    pathhttp: p('http'),
  };
  const base = readFileSync('/etc/news/inn.conf', 'utf8')
    .split('\n')
    .filter((line) => !(line.split(':')[0]!.trim() in overrides));
  writeFileSync(l.conf, [...base, ...Object.entries(overrides).map(([k, v]) => `${k}: ${v}`)].join('\n') + '\n');
  writeFileSync(path.join(etc, 'newsfeeds'), 'ME:*::\n');
  writeFileSync(path.join(etc, 'incoming.conf'), '# no peers: every connection is a reader (nnrpd)\n');
  writeFileSync(path.join(etc, 'storage.conf'), 'method tradspool {\n  newsgroups: *\n  class: 0\n}\n');
  const hash = execFileSync('openssl', ['passwd', '-6', l.password], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(etc, 'spool-test.passwd'), `${l.username}:${hash}\n`);
  writeFileSync(
    path.join(etc, 'readers.conf'),
    `auth "spool-test" {\n  hosts: "*"\n  auth: "ckpasswd -f ${path.join(etc, 'spool-test.passwd')}"\n}\n` +
      `access "spool-test" {\n  users: "${l.username}"\n  newsgroups: "*"\n  access: RPA\n}\n`,
  );
  const db = p('db');
  if (!existsSync(path.join(db, 'active'))) {
    writeFileSync(
      path.join(db, 'active'),
      ['control', 'control.cancel', 'junk'].map((g) => `${g} 0000000000 0000000001 n`).join('\n') +
        `\n${l.group} 0000000000 0000000001 y\n`,
    );
    writeFileSync(path.join(db, 'active.times'), '');
    writeFileSync(path.join(db, 'newsgroups'), '');
    writeFileSync(path.join(db, 'history'), '');
  }
  execFileSync('chown', ['-R', 'news:news', l.root]);
  if (!existsSync(path.join(db, 'history.dir'))) {
    execFileSync(`${INN_BIN}/makedbz`, ['-i', '-o'], {
      cwd: db,
      env: { ...process.env, INNCONF: l.conf },
      uid: newsId('-u'),
      gid: newsId('-g'),
      stdio: 'ignore',
    });
  }
}

/** The news user's uid or gid ('-u' / '-g'). */
export function newsId(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'news'], { encoding: 'utf8' }).trim());
}
