// Checks the system packages the tests need and installs missing ones when it can (root on Debian).
// Otherwise it stops at once with the exact command to run. It never lets a test skip silently.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** What each tier needs: a file that proves the package is there, and the Debian package that provides it. */
export const SYSTEM_DEPS = {
  chromium: { check: ['/usr/bin/chromium'], packages: ['chromium'], tiers: ['e2e'] },
  inn2: { check: ['/usr/lib/news/bin/innd'], packages: ['inn2'], tiers: ['integration', 'bench', 'container'] },
  litmus: { check: ['/usr/bin/litmus'], packages: ['litmus'], tiers: ['integration'] },
  rclone: { check: ['/usr/bin/rclone'], packages: ['rclone'], tiers: ['integration'] },
  // Our FUSE 3 addon (appliance/fuse/native) builds against libfuse3-dev; fuse3 brings fusermount3 (and replaces
  // Debian's FUSE 2 `fuse`, whose /usr/bin/fusermount becomes a link to fusermount3).
  fuse: {
    check: ['/usr/bin/fusermount3', '/usr/include/fuse3/fuse.h'],
    packages: ['fuse3', 'libfuse3-dev'],
    tiers: ['unit', 'integration', 'e2e', 'container'],
  },
  // Real media files (tests/support/media/ffmpeg.ts) for the container duration probe; ffprobe checks its readings.
  // The contention bench makes its library with ffmpeg and scans it with ffprobe.
  ffmpeg: {
    check: ['/usr/bin/ffmpeg', '/usr/bin/ffprobe'],
    packages: ['ffmpeg'],
    tiers: ['unit', 'integration', 'e2e', 'bench', 'container'],
  },
  par2: { check: ['/usr/bin/par2'], packages: ['par2'], tiers: ['integration', 'bench'] },
  // Independent readers the archive tests check our test RAR/7z writers against (docs/archives.md); 7zip writes 7z.
  archives: {
    check: ['/usr/bin/unar', '/usr/bin/lsar', '/usr/bin/bsdtar', '/usr/bin/7zz'],
    packages: ['unar', 'libarchive-tools', '7zip'],
    tiers: ['integration'],
  },
  // The container's s6 scripts run under a real s6-svscan (s6-rc itself is not packaged in Debian); shellcheck lints them.
  s6: {
    check: ['/usr/bin/s6-svscan', '/usr/bin/s6-notifyoncheck', '/usr/bin/execlineb'],
    packages: ['s6', 'execline'],
    tiers: ['integration'],
  },
  // A real Prometheus scrapes GET /metrics and promtool checks the shipped alert rules (tests/integration/metrics/).
  prometheus: { check: ['/usr/bin/prometheus', '/usr/bin/promtool'], packages: ['prometheus'], tiers: ['integration'] },
  // A real reverse proxy for the forward-auth tests (tests/support/nginx.ts; auth_request is in Debian's nginx) and
  // for stream links (tests/support/nginx-path-proxy.ts: ffmpeg plays a .strm link through it).
  nginx: { check: ['/usr/sbin/nginx'], packages: ['nginx'], tiers: ['integration'] },
  shellcheck: { check: ['/usr/bin/shellcheck'], packages: ['shellcheck'], tiers: ['integration'] },
  // The PostgreSQL store's tests, the stream bench on both stores and the container's backup of a PostgreSQL store
  // start a real server (tests/support/postgres/).
  postgresql: {
    // Debian 12's server (the package `postgresql` depends on postgresql-15); the harness finds any major.
    check: ['/usr/lib/postgresql/15/bin/initdb', '/usr/lib/postgresql/15/bin/postgres'],
    packages: ['postgresql'],
    tiers: ['integration', 'bench', 'container'],
  },
  nzbget: { check: ['/usr/bin/nzbget'], packages: ['nzbget'], tiers: ['bench'] },
  // The container tier builds the Dockerfile with podman (runc: crun fails on these machines; netavark and
  // aardvark-dns for the build's network) and, where debian:bookworm-slim cannot be pulled, its base with mmdebstrap.
  podman: {
    check: ['/usr/bin/podman', '/usr/sbin/runc', '/usr/bin/mmdebstrap', '/usr/lib/podman/netavark'],
    packages: ['podman', 'runc', 'mmdebstrap', 'netavark', 'aardvark-dns', 'iptables'],
    tiers: ['container'],
  },
};

export function missingFor(tiers) {
  return Object.entries(SYSTEM_DEPS)
    .filter(([, d]) => d.tiers.some((t) => tiers.includes(t)))
    .filter(([, d]) => !d.check.every((f) => existsSync(f)))
    .map(([name, d]) => ({ name, packages: d.packages }));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const isDebian = () => existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get');

/** INN's postinst refuses a host name without a domain; give inn.conf one and finish the configuration. */
function ensureInnDomain() {
  const conf = '/etc/news/inn.conf';
  if (!existsSync(conf)) return;
  const text = readFileSync(conf, 'utf8');
  if (/^domain:\s*\S+/m.test(text)) return;
  writeFileSync(conf, text.replace(/^#?\s*domain:.*$/m, '') + '\ndomain: localdomain\n');
  spawnSync('dpkg', ['--configure', '-a'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export function ensureSystemDeps(tiers) {
  const missing = missingFor(tiers);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.flatMap((m) => m.packages))];
  const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!isRoot() || !isDebian()) {
    console.error(`Missing system packages for the tests: ${missing.map((m) => m.name).join(', ')}.`);
    console.error(`Install them with:\n  sudo sh -c '${command}'`);
    process.exit(1);
  }
  console.log(`Installing missing system packages: ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  if (packages.includes('inn2')) ensureInnDomain();
  if (res.status !== 0 && !packages.includes('inn2')) process.exit(res.status ?? 1);
  const still = missingFor(tiers);
  if (still.length > 0) {
    console.error(`Still missing after install: ${still.map((m) => m.name).join(', ')}. Run: ${command}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureSystemDeps(process.argv.slice(2).length ? process.argv.slice(2) : ['integration', 'e2e']);
}
