// `npm test`: unit, integration and browser tests, in that order. `npm test -- unit|integration|e2e` runs one tier.
// `npm test -- container` (not part of a plain `npm test`) builds the image with podman and runs it (tests/container).
// System packages the tiers need are checked first (scripts/system-deps.mjs): installed when root on Debian,
// otherwise the run stops with the exact command. Nothing is skipped silently.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSystemDeps } from './system-deps.mjs';
import { addonIsStale, buildNative } from './build-native.mjs';

const TIERS = ['unit', 'integration', 'e2e'];
const ALL_TIERS = [...TIERS, 'container'];
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const tiers = asked.length ? asked : TIERS;
for (const t of tiers) {
  if (!ALL_TIERS.includes(t)) {
    console.error(`Unknown test tier '${t}'. Use one of: ${ALL_TIERS.join(', ')}`);
    process.exit(2);
  }
}

function findFiles(dir, suffixes, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findFiles(p, suffixes, out);
    else if (suffixes.some((s) => name.endsWith(s))) out.push(p);
  }
  return out.sort();
}

// A tier that prints nothing for this long is stuck (every test file reports as it ends, and a test times out at 5
// minutes at most; how long a whole tier takes depends on how busy the machine is, so that is no sign). The usual
// cause is a process blocked on a FUSE mount whose server died (uninterruptible: not even SIGKILL frees it), so the
// watchdog aborts FUSE connections before killing.
const SILENCE_LIMIT_MS = 15 * 60 * 1000;

function abortFuseConnections() {
  if (!existsSync('/sys/fs/fuse/connections')) return;
  if (readdirSync('/sys/fs/fuse/connections').length === 0) {
    spawnSync('mount', ['-t', 'fusectl', 'none', '/sys/fs/fuse/connections'], { stdio: 'ignore' });
  }
  for (const c of readdirSync('/sys/fs/fuse/connections')) {
    try {
      writeFileSync(join('/sys/fs/fuse/connections', c, 'abort'), '1');
    } catch {
      // not ours to abort, or already gone
    }
  }
}

let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The tier runs in its own process group (so the watchdog can stop all of it): pass the signal on.
    if (current) {
      try {
        process.kill(-current.pid, signal);
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.length > 6 ? args.slice(0, 6).join(' ') + ' …' : args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      detached: true,
    });
    current = child;
    const stuck = () => {
      console.error(
        `\n!! ${cmd} printed nothing for ${SILENCE_LIMIT_MS / 60000} minutes: aborting FUSE connections and stopping it`,
      );
      abortFuseConnections();
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let watchdog = setTimeout(stuck, SILENCE_LIMIT_MS);
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      from.on('data', (chunk) => {
        to.write(chunk);
        clearTimeout(watchdog);
        watchdog = setTimeout(stuck, SILENCE_LIMIT_MS);
      });
    }
    child.on('exit', (code, signal) => {
      clearTimeout(watchdog);
      current = null;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

ensureSystemDeps(tiers);
// The FUSE addon: `npm install` skipped it if the headers were missing (just installed above), or its C changed.
if (addonIsStale() && buildNative({ required: true }) !== 0) process.exit(1);

const results = [];
for (const tier of tiers) {
  let status = 0;
  if (tier === 'unit') {
    const files = [
      ...findFiles('appliance', ['.test.ts']),
      ...findFiles('workers', ['.test.ts']),
      ...findFiles('pwa/src', ['.test.ts', '.test.tsx']),
      ...findFiles('scripts', ['.test.mjs']),
      ...findFiles('bench', ['.test.ts']),
    ];
    // No --test-force-exit: a file whose process outlives its tests (a handle a close path left open) fails at its
    // timeout instead of ending quietly; tests/support/linger/report-handles.mjs shows what holds it (README "Tests").
    const flags = ['--test', '--test-timeout=300000'];
    status = files.length ? await run('node', ['--import', 'tsx', ...flags, ...files]) : 0;
    results.push([tier, files.length, status]);
  } else if (tier === 'integration') {
    const files = findFiles('tests/integration', ['.test.ts']);
    // The 5-minute cap is for a hung test, not a speed. The scale files (`*-scale.test.ts`: 100,000-file libraries
    // built through the app, then restored or reread) take 3-4 minutes on a quiet 2-core machine and more than 5 on
    // a busy one (a CI run beside stress-ng built the restore test's library in 216 s), so they run after the others
    // with a 15-minute cap.
    const scale = files.filter((f) => f.endsWith('-scale.test.ts'));
    const rest = files.filter((f) => !scale.includes(f));
    const node = (cap, list) =>
      run('node', ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-timeout=${cap}`, ...list]);
    status = rest.length ? await node(300_000, rest) : 0;
    const scaleStatus = scale.length ? await node(900_000, scale) : 0;
    status ||= scaleStatus;
    results.push([tier, files.length, status]);
  } else if (tier === 'e2e') {
    const files = findFiles('tests/e2e', ['.spec.ts']);
    if (files.length) {
      status = await run('npm', ['run', 'build']);
      if (status === 0) status = await run('npx', ['playwright', 'test']);
    }
    results.push([tier, files.length, status]);
  } else if (tier === 'container') {
    const files = findFiles('tests/container', ['.test.ts']);
    status = await run('node', ['scripts/image.mjs']);
    if (status === 0 && files.length)
      status = await run('node', [
        '--import',
        'tsx',
        '--test',
        '--test-concurrency=1',
        '--test-timeout=600000',
        ...files,
      ]);
    results.push([tier, files.length, status]);
  }
}

console.log('\nTest summary:');
for (const [tier, count, status] of results)
  console.log(`  ${tier.padEnd(12)} ${String(count).padStart(3)} files  ${status === 0 ? 'passed' : 'FAILED'}`);
process.exit(results.some(([, , s]) => s !== 0) ? 1 : 0);
