#!/usr/bin/env node
// The import rules ESLint cannot see (run by `npm run lint`):
//  1. No import cycles in appliance/, workers/ and the console (type-only imports count: a cycle of types is still a
//     knot).
//  2. Only the composition root imports it: nothing outside appliance/app/ (but supervisor.ts, main.ts, migrate-command.ts, backup-command.ts) imports
//     appliance/app/.
//  3. The console (pwa/src) imports from appliance/ only wire files (`*.wire.ts`), and what a wire file loads at
//     run time (type-only imports aside) uses no Node built-in and no npm package: it is bundled into the browser.
//  4. Layers (LAYERS below): a file imports only from its own layer or the layers under it, and a domain reaches
//     http/ only through the ports in HTTP_PORTS. Tests (`*.test.ts`) stand beside the code but in no layer.
//  5. The console's API modules (`pwa/src/**/*Api.ts`, and `pwa/src/api/` but the transport client.ts) declare no
//     `export interface`: a shape the server answers or takes is a wire type they import, never a copy.
//  6. Storage behind ports: only `*.store.ts`, `*.migrations.ts`, `*.storage.ts` (a domain's storage module),
//     `*.copy.ts` (its copy into PostgreSQL), appliance/store/ and appliance/app/ import appliance/store/, lmdb or pg
//     (type-only imports count); services depend on their domain's port (`*.port.ts`).
// Exits 1 with one line per problem. See docs/contributing.md "Layers" and "Wire types".
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

/**
 * The layers of the server, from the ground up. A file may import its own layer and every layer under it, never one
 * above: what is lower knows nothing of what is built on it. Every folder of appliance/ (and workers/) stands in
 * exactly one layer; a new folder is added here, or lint fails.
 */
const LAYERS = [
  // Plumbing any code may use: coded errors, time, names as text, addon lookup, the logger, the LMDB environment.
  // Knows nothing of Usenet, the config file or HTTP.
  ['base', ['errors', 'clock', 'text', 'addons', 'logging', 'store']],
  // Usenet's bytes: the article map, archive headers, PAR2 packets and repair math, NZB parsing (and its worker), the
  // NNTP pool, article evidence, media container headers (a file's duration).
  // Takes plain settings; knows no config file, user or route.
  ['engine', ['layout', 'archive', 'par2', 'nzb', 'workers/', 'nntp', 'articles', 'media']],
  // What Spool keeps and decides: the event map domains emit on, the config file, users, the virtual filesystem,
  // rclone, the arrs, the import queue, file health, PAR2 repair (patch store, kept PAR2 files), the SABnzbd service,
  // the Streams view, the Prometheus metrics, notifications, the media servers told of library changes,
  // what the providers are worth (availability from real traffic), the operator's diagnostics and support bundle.
  // A domain serves callers; it reaches http/ only through HTTP_PORTS.
  [
    'domains',
    [
      'events',
      'config',
      'auth',
      'vfs',
      'rclone',
      'arrs',
      'importer',
      'health',
      'repair',
      'sabnzbd',
      'streams',
      'streamlinks',
      'metrics',
      'notify',
      'mediaservers',
      'providers',
      'backup',
      'diagnostics',
    ],
  ],
  // The ways in: the HTTP listener and router, WebDAV over the VFS, the FUSE mount.
  ['fronts', ['http', 'webdav', 'fuse']],
  // Every route module: the /api calls of the console contract and the SABnzbd API, thin, one service call each.
  ['api', ['api']],
  // The composition root: builds every domain and wires them to each other and to the route table.
  ['app', ['app']],
  // The process: the supervisor (listen, rebuild on restart), main (environment, signals), the migrate and backup
  // commands.
  ['main', ['supervisor.ts', 'main.ts', 'migrate-command.ts', 'backup-command.ts']],
];

/**
 * The files of http/ a domain may import: the request and caller a service reads (types), the dispatcher's
 * Gatekeeper and NetworkPolicy that auth implements (types), the trusted proxies auth applies, and
 * the multipart reader an NZB upload uses. Routes, the router and replies stay out of domains: they live in api/.
 */
const HTTP_PORTS = new Set(['context.ts', 'request.ts', 'dispatch.ts', 'client-address.ts', 'multipart.ts']);

// 1. Cycles (Tarjan's strongly connected components over the server's and the console's files).
{
  const server = new Set([...serverFiles, ...consoleFiles]);
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
  for (const f of server) if (!idx.has(f)) visit(f);
}

// 2. Nothing but the composition root and its callers import appliance/app/.
{
  const appDir = join(root, 'appliance', 'app') + '/';
  const allowed = new Set(
    ['supervisor.ts', 'main.ts', 'migrate-command.ts', 'backup-command.ts'].map((f) => join(root, 'appliance', f)),
  );
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

// 4. Layers: no import runs back up, and domains reach http/ only through its ports.
{
  const layerOf = new Map(); // a folder or file under appliance/ (or workers/) -> [rank, layer name]
  LAYERS.forEach(([name, places], rank) => {
    for (const place of places) layerOf.set(place.endsWith('/') ? place : `appliance/${place}`, [rank, name]);
  });
  const placeOf = (abs) => {
    const parts = rel(abs).split('/');
    return parts[0] === 'workers' ? 'workers/' : `appliance/${parts[1]}`;
  };
  const domainsRank = LAYERS.findIndex(([name]) => name === 'domains');
  const httpDir = join(root, 'appliance', 'http') + '/';
  for (const f of serverFiles) {
    if (f.endsWith('.test.ts')) continue;
    const from = layerOf.get(placeOf(f));
    if (!from) {
      problems.push(`${rel(f)} stands in no layer: add ${placeOf(f)} to LAYERS in scripts/check-imports.mjs`);
      continue;
    }
    for (const { to } of edges.get(f)) {
      if (!to || to.endsWith('.test.ts')) continue;
      const target = layerOf.get(placeOf(to));
      if (!target) continue; // reported as a file of its own
      if (target[0] <= from[0]) continue;
      if (from[0] === domainsRank && to.startsWith(httpDir)) {
        if (!HTTP_PORTS.has(to.slice(httpDir.length)))
          problems.push(`${rel(f)} (domains) imports ${rel(to)}: a domain reaches http/ only through HTTP_PORTS`);
      } else {
        problems.push(`${rel(f)} (${from[1]}) imports ${rel(to)} (${target[1]}): an import may not run up a layer`);
      }
    }
  }
}

// 5. No hand-written server shapes in the console's API modules.
{
  const apiDir = join(root, 'pwa', 'src', 'api') + '/';
  const isApiModule = (f) =>
    /Api\.tsx?$/.test(f) || (f.startsWith(apiDir) && !f.endsWith('/client.ts') && !f.endsWith('.test.ts'));
  for (const f of consoleFiles.filter(isApiModule)) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const m = /^\s*export\s+(?:declare\s+)?interface\s+(\w+)/.exec(line);
        if (m)
          problems.push(
            `${rel(f)}:${i + 1} declares interface ${m[1]}: an API module imports its shapes from a wire file (*.wire.ts)`,
          );
      });
  }
}

// 6. Storage behind ports (docs/architecture.md, "Storage ports"): the store's types stay in the store files.
{
  const storeDir = join(root, 'appliance', 'store') + '/';
  const appDir = join(root, 'appliance', 'app') + '/';
  const mayUseStorage = (f) =>
    f.endsWith('.store.ts') ||
    f.endsWith('.migrations.ts') ||
    f.endsWith('.storage.ts') ||
    f.endsWith('.copy.ts') ||
    f.startsWith(storeDir) ||
    f.startsWith(appDir) ||
    // Tests build the real LMDB stores their domain runs on in the app.
    f.endsWith('.test.ts');
  for (const f of serverFiles) {
    if (mayUseStorage(f)) continue;
    for (const { to, spec } of edges.get(f)) {
      const driver = spec === 'lmdb' || spec.startsWith('lmdb/') || spec === 'pg' || spec.startsWith('pg/');
      if (driver || (to && to.startsWith(storeDir)))
        problems.push(
          `${rel(f)} imports ${spec}: only *.store.ts, *.migrations.ts, *.storage.ts, *.copy.ts, store/ and app/ reach the store`,
        );
    }
  }
}

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(
  `imports: ${serverFiles.length} server files, no cycles, no import up a layer, storage only behind ports; console reaches appliance/ only through wire files and its API modules declare no interface`,
);
