// Builds the FUSE 3 addon (appliance/fuse/native) with node-gyp. Run by `npm install` (the root `install` script)
// and by scripts/test.mjs after it installed the headers. Without the FUSE 3 headers the build is skipped with a
// warning and exit code 0, so a fresh `npm install && npm start` still works: WebDAV serves, and the mount
// reports why it cannot start (GET /api/rclone/mount/status). `--required` makes a missing build an error.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addonDir = join(root, 'appliance', 'fuse', 'native');
export const ADDON = join(addonDir, 'build', 'Release', 'spool_fuse.node');
const HEADER = '/usr/include/fuse3/fuse.h';
const INSTALL = 'apt-get install libfuse3-dev fuse3';

/** npm's own node-gyp: npm names it for scripts it runs; otherwise next to the npm that is on the PATH. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp))
    return process.env.npm_config_node_gyp;
  const npm = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' });
  const candidate = join(npm.stdout?.trim() ?? '', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(candidate) ? candidate : null;
}

/** True when the addon is missing or older than one of its sources. */
export function addonIsStale() {
  if (!existsSync(ADDON)) return true;
  const built = statSync(ADDON).mtimeMs;
  const sources = [
    join(addonDir, 'binding.gyp'),
    ...readdirSync(join(addonDir, 'src')).map((f) => join(addonDir, 'src', f)),
  ];
  return sources.some((f) => statSync(f).mtimeMs > built);
}

export function buildNative({ required = false } = {}) {
  const skip = (why) => {
    const msg = `FUSE addon not built: ${why}. The mount will not start (WebDAV works).`;
    console.warn(
      `\n!! ${msg}\n   Install the FUSE 3 headers and tools (Debian: ${INSTALL}), then: npm run build:native\n`,
    );
    return required ? 1 : 0;
  };
  if (!existsSync(addonDir)) return 0; // a partial checkout (e.g. a Docker layer with package.json only)
  if (!existsSync(HEADER)) return skip(`${HEADER} is missing`);
  const gyp = nodeGyp();
  if (!gyp) return skip("npm's node-gyp was not found");
  const args = [gyp, 'rebuild'];
  // Build against the local Node headers rather than downloading them (no internet in CI).
  if (!process.env.npm_config_nodedir && existsSync(join(dirname(process.execPath), '..', 'include', 'node')))
    args.push(`--nodedir=${join(dirname(process.execPath), '..')}`);
  const res = spawnSync(process.execPath, args, { cwd: addonDir, stdio: 'inherit' });
  if (res.status !== 0 || !existsSync(ADDON)) return skip('node-gyp failed (output above)');
  console.log(`FUSE addon built: ${ADDON}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(buildNative({ required: process.argv.includes('--required') }));
}
