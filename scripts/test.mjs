// `npm test`: unit, integration and browser tests, in that order. `npm test -- unit|integration|e2e` runs one tier.
// System packages the tiers need are checked first (scripts/system-deps.mjs): installed when root on Debian,
// otherwise the run stops with the exact command. Nothing is skipped silently.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSystemDeps } from './system-deps.mjs';

const TIERS = ['unit', 'integration', 'e2e'];
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const tiers = asked.length ? asked : TIERS;
for (const t of tiers) {
  if (!TIERS.includes(t)) {
    console.error(`Unknown test tier '${t}'. Use one of: ${TIERS.join(', ')}`);
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

function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.length > 6 ? args.slice(0, 6).join(' ') + ' …' : args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

ensureSystemDeps(tiers);

const results = [];
for (const tier of tiers) {
  let status = 0;
  if (tier === 'unit') {
    const files = [
      ...findFiles('appliance', ['.test.ts']),
      ...findFiles('workers', ['.test.ts']),
      ...findFiles('pwa/src', ['.test.ts', '.test.tsx']),
      ...findFiles('scripts', ['.test.mjs']),
    ];
    status = files.length ? run('node', ['--import', 'tsx', '--test', '--test-timeout=60000', ...files]) : 0;
    results.push([tier, files.length, status]);
  } else if (tier === 'integration') {
    const files = findFiles('tests/integration', ['.test.ts']);
    status = files.length
      ? run('node', ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=300000', ...files])
      : 0;
    results.push([tier, files.length, status]);
  } else if (tier === 'e2e') {
    const files = findFiles('tests/e2e', ['.spec.ts']);
    if (files.length) {
      status = run('npm', ['run', 'build']);
      if (status === 0) status = run('npx', ['playwright', 'test']);
    }
    results.push([tier, files.length, status]);
  }
}

console.log('\nTest summary:');
for (const [tier, count, status] of results)
  console.log(`  ${tier.padEnd(12)} ${String(count).padStart(3)} files  ${status === 0 ? 'passed' : 'FAILED'}`);
process.exit(results.some(([, , s]) => s !== 0) ? 1 : 0);
