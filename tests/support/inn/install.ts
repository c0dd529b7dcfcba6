/**
 * Installs Debian's inn2 when it is missing. Only root can do this; everyone else gets a clear error.
 * The package's postinst fails on a host name without a domain, so we give inn.conf a `domain:` and finish the
 * configuration with `dpkg --configure -a`. A temporary policy-rc.d keeps the package from starting the system
 * innd on port 119: our harness runs its own private instance.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, unlinkSync } from 'node:fs';

export const INN_BIN = '/usr/lib/news/bin';
const INN_CONF = '/etc/news/inn.conf';
const POLICY_RC = '/usr/sbin/policy-rc.d';

export function innInstalled(): boolean {
  if (!existsSync(`${INN_BIN}/innd`) || !existsSync(`${INN_BIN}/nnrpd`)) return false;
  const st = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', 'inn2'], { encoding: 'utf8' });
  return st.stdout.trim() === 'installed';
}

export function ensureInnInstalled(log: (msg: string) => void = () => {}): void {
  if (innInstalled()) return;
  if (process.getuid?.() !== 0) {
    throw new Error('inn2 is not installed and only root can install it: run `apt-get install inn2` first');
  }
  log('installing inn2 through apt');
  const ownPolicy = !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // The first attempt may stop at inn2's postinst (no domain); that is expected and repaired below.
    spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'inn2'], { env, stdio: 'ignore' });
    if (!existsSync(`${INN_BIN}/innd`)) {
      spawnSync('apt-get', ['update', '-q'], { env, stdio: 'ignore' });
      spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'inn2'], { env, stdio: 'ignore' });
    }
    if (!existsSync(INN_CONF)) throw new Error('apt-get install inn2 did not leave /etc/news/inn.conf');
    const conf = readFileSync(INN_CONF, 'utf8');
    if (!/^domain:\s*\S+/m.test(conf))
      writeFileSync(INN_CONF, conf.replace(/^#?\s*domain:.*$/m, '') + '\ndomain: localdomain\n');
    execFileSync('dpkg', ['--configure', '-a'], { env, stdio: 'ignore' });
  } finally {
    if (ownPolicy) unlinkSync(POLICY_RC);
  }
  if (!innInstalled()) throw new Error('inn2 installation failed (see apt logs in /var/log/apt/term.log)');
}
