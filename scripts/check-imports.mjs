#!/usr/bin/env node
// The import rules ESLint cannot see (run by `npm run lint`):
//  1. No import cycles in appliance/ and workers/ (type-only imports count: a cycle of types is still a knot).
//  2. Only the composition root imports it: nothing outside appliance/app/ (but supervisor.ts, main.ts) imports
//     appliance/app/.
//  3. The console (pwa/src) imports from appliance/ only wire files (`*.wire.ts`), and what a wire file loads at
//     run time (type-only imports aside) uses no Node built-in and no npm package: it is bundled into the browser.
// Exits 1 with one line per problem. See docs/contributing.md "Wire types".
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rel = (abs) => relative(root, abs).split('\\').join('/');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'build' || name === 'dist') continue;
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) walk(abs, out);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(abs);
  }
  return out;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([\w\s{},*$]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import of a file: { spec, typeOnly }. `import { type A, type B }` counts as type-only. */
function importsOf(abs) {
  const text = readFileSync(abs, 'utf8');
  const found = [];
  for (const m of text.matchAll(STATIC)) {
    const clause = m[3].trim();
    const allTypes =
      /^\{[\s\S]*\}$/.test(clause) &&
      clause
        .slice(1, -1)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    found.push({ spec: m[4], typeOnly: Boolean(m[2]) || allTypes });
  }
  for (const m of text.matchAll(BARE)) found.push({ spec: m[1], typeOnly: false });
  for (const m of text.matchAll(DYNAMIC)) found.push({ spec: m[1], typeOnly: false });
  return found;
}

/** The file a relative import names (.js written for .ts, or no extension in the console), or null. */
function resolveImport(fromAbs, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(fromAbs), spec);
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts')]) {
    if (/\.(ts|tsx)$/.test(c) && existsSync(c)) return c;
  }
  return null;
}

const serverFiles = [...walk(join(root, 'appliance')), ...walk(join(root, 'workers'))];
const consoleFiles = walk(join(root, 'pwa', 'src'));
const edges = new Map(); // abs -> [{ to, typeOnly, spec }]
for (const f of [...serverFiles, ...consoleFiles]) {
  edges.set(
    f,
    importsOf(f).map((i) => ({ ...i, to: resolveImport(f, i.spec) })),
  );
}

const problems = [];

// 1. Cycles (Tarjan's strongly connected components over the server files).
{
  const server = new Set(serverFiles);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of edges.get(v)) {
      if (!to || !server.has(to)) continue;
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v), idx.get(to)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      const selfLoop = edges.get(v).some((e) => e.to === v);
      if (group.length > 1 || selfLoop) problems.push(`import cycle: ${group.map(rel).sort().join(' <-> ')}`);
    }
  };
  for (const f of serverFiles) if (!idx.has(f)) visit(f);
}

// 2. Nothing but the composition root and its callers import appliance/app/.
{
  const appDir = join(root, 'appliance', 'app') + '/';
  const allowed = new Set([join(root, 'appliance', 'supervisor.ts'), join(root, 'appliance', 'main.ts')]);
  for (const f of serverFiles) {
    if (f.startsWith(appDir) || allowed.has(f)) continue;
    for (const { to, spec } of edges.get(f)) {
      if (to && to.startsWith(appDir)) problems.push(`${rel(f)} imports the composition root (${spec})`);
    }
  }
}

// 3. The console reaches appliance/ only through wire files, and those stay free of Node at run time.
{
  const applianceDir = join(root, 'appliance') + '/';
  const wires = new Set();
  for (const f of consoleFiles) {
    for (const { to, spec } of edges.get(f)) {
      if (!to || !to.startsWith(applianceDir)) continue;
      if (!to.endsWith('.wire.ts')) problems.push(`${rel(f)} imports ${spec}: the console imports only *.wire.ts`);
      else wires.add(to);
    }
  }
  for (const f of serverFiles) if (f.endsWith('.wire.ts')) wires.add(f);
  const seen = new Set();
  const check = (f, via) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const { to, spec, typeOnly } of edges.get(f) ?? []) {
      if (typeOnly) continue;
      if (!spec.startsWith('.'))
        problems.push(`${rel(f)} (loaded by ${rel(via)}) imports ${spec}: wire files load no Node module or package`);
      else if (to) check(to, via);
    }
  };
  for (const w of wires) check(w, w);
}

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(
  `imports: ${serverFiles.length} server files, no cycles; console reaches appliance/ only through wire files`,
);
