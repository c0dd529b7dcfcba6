// Builds our four native addons with node-gyp. Run by `npm install` (the root `install` script) and by
// scripts/test.mjs when one is missing or older than its sources.
// - appliance/nntp/native (spool_tcp.node): TCP socket options Node does not expose (appliance/nntp/tcp-quickack.ts).
//   Needs only Node's headers and a C compiler. Without it Spool still works, with the delayed-ACK stalls that
//   docs/nntp.md describes; `--required` makes a failed build an error.
// - appliance/par2/native (spool_gf16.node): GF(2^16) multiply-add with SSSE3/AVX2 for the PAR2 solve
//   (appliance/par2/gf16-native.ts). Without it the solve uses the pure TypeScript multiply-add, several times slower.
// - appliance/addons/native (spool_memory.node): a full V8 collection and glibc's malloc_trim(0), run after a burst
//   of imports to give freed memory back (appliance/addons/release-memory.ts). Without it the memory stays mapped.
// - appliance/fuse/native (spool_fuse.node): the FUSE 3 binding. Without the FUSE 3 headers its build is skipped
//   with a warning and exit code 0, so a fresh `npm install && npm start` still works: WebDAV serves, and the mount
//   reports why it cannot start (GET /api/rclone/mount/status). `--required` makes a missing build an error.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ADDONS = [
  {
    name: 'TCP options addon',
    dir: join(root, 'appliance', 'nntp', 'native'),
    file: 'spool_tcp.node',
    missing: () => null,
    consequence: 'Provider connections work without it, with delayed-ACK stalls on servers that use Nagle.',
    install: 'apt-get install build-essential python3',
  },
  {
    name: 'GF(2^16) addon',
    dir: join(root, 'appliance', 'par2', 'native'),
    file: 'spool_gf16.node',
    missing: () => null,
    consequence: 'PAR2 repair works without it, several times slower (pure TypeScript multiply-add).',
    install: 'apt-get install build-essential python3',
  },
  {
    name: 'memory addon',
    dir: join(root, 'appliance', 'addons', 'native'),
    file: 'spool_memory.node',
    missing: () => null,
    consequence: 'Memory a large import freed stays with the process (glibc keeps it) until the next restart.',
    install: 'apt-get install build-essential python3',
  },
  {
    name: 'FUSE addon',
    dir: join(root, 'appliance', 'fuse', 'native'),
    file: 'spool_fuse.node',
    missing: () => (existsSync('/usr/include/fuse3/fuse.h') ? null : '/usr/include/fuse3/fuse.h is missing'),
    consequence: 'The mount will not start (WebDAV works).',
    install: 'apt-get install libfuse3-dev fuse3',
  },
];

/** npm's own node-gyp: npm names it for scripts it runs; otherwise next to the npm that is on the PATH. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp))
    return process.env.npm_config_node_gyp;
  const npm = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' });
  const candidate = join(npm.stdout?.trim() ?? '', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(candidate) ? candidate : null;
}

const built = (a) => join(a.dir, 'build', 'Release', a.file);

function stale(a) {
  if (!existsSync(a.dir)) return false; // a partial checkout (e.g. a Docker layer with package.json only)
  if (!existsSync(built(a))) return true;
  const at = statSync(built(a)).mtimeMs;
  const sources = [join(a.dir, 'binding.gyp'), ...readdirSync(join(a.dir, 'src')).map((f) => join(a.dir, 'src', f))];
  return sources.some((f) => statSync(f).mtimeMs > at);
}

/** True when an addon is missing or older than one of its sources. */
export function addonIsStale() {
  return ADDONS.some(stale);
}

function buildOne(a, gyp, required) {
  const skip = (why) => {
    console.warn(
      `\n!! ${a.name} not built: ${why}. ${a.consequence}\n   Debian: ${a.install}, then: npm run build:native\n`,
    );
    return required ? 1 : 0;
  };
  if (!existsSync(a.dir)) return 0;
  const missing = a.missing();
  if (missing) return skip(missing);
  if (!gyp) return skip("npm's node-gyp was not found");
  const args = [gyp, 'rebuild'];
  // Build against the local Node headers rather than downloading them (no internet in CI).
  if (!process.env.npm_config_nodedir && existsSync(join(dirname(process.execPath), '..', 'include', 'node')))
    args.push(`--nodedir=${join(dirname(process.execPath), '..')}`);
  const res = spawnSync(process.execPath, args, { cwd: a.dir, stdio: 'inherit' });
  if (res.status !== 0 || !existsSync(built(a))) return skip('node-gyp failed (output above)');
  console.log(`${a.name} built: ${built(a)}`);
  return 0;
}

export function buildNative({ required = false } = {}) {
  const gyp = nodeGyp();
  let status = 0;
  for (const a of ADDONS) status = buildOne(a, gyp, required) || status;
  return status;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(buildNative({ required: process.argv.includes('--required') }));
}
