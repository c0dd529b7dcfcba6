/**
 * The s6-rc source tree in s6-overlay/s6-rc.d, checked against s6-rc-compile's documented source format (s6-rc
 * is not packaged in Debian, so s6-rc-compile cannot run here; s6-overlay compiles this tree at container start),
 * the scripts linted by shellcheck, and the Dockerfile's references into the tree.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT, S6_OVERLAY_DIR, S6_RC_DIR } from './s6.support.js';

/** Services that s6-overlay's own tree defines and ours may depend on. */
const OVERLAY_SERVICES = new Set(['base']);

type Kind = 'oneshot' | 'longrun' | 'bundle';
const read = (...p: string[]) => readFileSync(join(S6_RC_DIR, ...p), 'utf8');
const list = (...p: string[]) => (existsSync(join(S6_RC_DIR, ...p)) ? readdirSync(join(S6_RC_DIR, ...p)) : []);
const isExecutable = (p: string) => (statSync(p).mode & 0o111) === 0o111;
/** Where a path inside the image's /etc/s6-overlay lives in the repository. */
const inRepo = (imagePath: string) => join(S6_OVERLAY_DIR, imagePath.replace(/^\/etc\/s6-overlay\//, ''));

function services(): Map<string, Kind> {
  const out = new Map<string, Kind>();
  for (const name of readdirSync(S6_RC_DIR)) out.set(name, read(name, 'type').trim() as Kind);
  return out;
}

/** Atomic services a name stands for (a bundle's contents, recursively). */
function expand(name: string, all: Map<string, Kind>, seen = new Set<string>()): string[] {
  if (all.get(name) !== 'bundle') return [name];
  if (seen.has(name)) throw new Error(`bundle cycle through ${name}`);
  seen.add(name);
  return list(name, 'contents.d').flatMap((n) => expand(n, all, seen));
}

describe('s6-rc source tree', () => {
  const all = services();

  it('has one valid type per service and the files each type needs', () => {
    assert.deepEqual([...all.keys()].sort(), ['init-spool-config', 'svc-spool', 'user']);
    for (const [name, kind] of all) {
      assert.ok(['oneshot', 'longrun', 'bundle'].includes(kind), `${name}/type is '${kind}'`);
      assert.ok(
        !name.startsWith('s6rc-') && !name.startsWith('s6-') && !name.startsWith('.'),
        `${name}: reserved name`,
      );
      if (kind === 'oneshot') {
        // `up` is an execline command line: here the absolute path of the script, as s6-overlay's docs advise.
        const up = read(name, 'up').trim();
        assert.match(up, /^\/etc\/s6-overlay\/s6-rc\.d\/[\w-]+\/run$/, `${name}/up`);
        assert.ok(isExecutable(inRepo(up)), `${up} exists in the repo and is executable`);
      }
      if (kind === 'longrun') {
        assert.ok(isExecutable(join(S6_RC_DIR, name, 'run')), `${name}/run is executable`);
        const fd = read(name, 'notification-fd').trim();
        assert.match(fd, /^\d+$/);
        assert.ok(Number(fd) >= 3, 'the notification fd is not stdin/stdout/stderr');
        assert.ok(isExecutable(join(S6_RC_DIR, name, 'data', 'check')), `${name}/data/check is executable`);
      }
      if (kind === 'bundle') assert.ok(list(name, 'contents.d').length > 0, `${name} bundle is empty`);
    }
  });

  it('only names services that exist, in an order with no cycle: base, then init, then the daemon', () => {
    const known = (n: string) => all.has(n) || OVERLAY_SERVICES.has(n);
    for (const name of all.keys()) {
      for (const dep of [...list(name, 'dependencies.d'), ...list(name, 'contents.d')])
        assert.ok(known(dep), `${name} names '${dep}', which no tree defines`);
    }
    assert.deepEqual(list('init-spool-config', 'dependencies.d'), ['base']);
    assert.deepEqual(list('svc-spool', 'dependencies.d'), ['init-spool-config']);
    assert.deepEqual(expand('user', all).sort(), ['init-spool-config', 'svc-spool']);
    // Depth-first walk of the dependency edges (bundles expanded) must never meet a service twice on one path.
    const visit = (name: string, path: string[]) => {
      assert.ok(!path.includes(name), `dependency cycle: ${[...path, name].join(' -> ')}`);
      for (const dep of list(name, 'dependencies.d').flatMap((d) => expand(d, all))) visit(dep, [...path, name]);
    };
    for (const name of all.keys()) visit(name, []);
  });

  it('has scripts that shellcheck finds nothing wrong with (POSIX sh, as dash in the image runs them)', () => {
    const scripts = [
      join(S6_RC_DIR, 'init-spool-config/run'),
      join(S6_RC_DIR, 'svc-spool/run'),
      join(S6_RC_DIR, 'svc-spool/data/check'),
      join(S6_RC_DIR, 'svc-spool/data/start'),
      join(PROJECT_ROOT, 'deploy/image/init'),
      join(PROJECT_ROOT, 'deploy/image/install-node.sh'),
      join(PROJECT_ROOT, 'deploy/image/slim-runtime.sh'),
    ];
    for (const s of scripts) assert.match(readFileSync(s, 'utf8'), /^#!\/bin\/sh\n/, `${s} starts with #!/bin/sh`);
    execFileSync('shellcheck', ['--shell=sh', '--severity=style', ...scripts], { stdio: 'pipe' });
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('copies this tree where s6-overlay reads it and points the health check at the readiness probe', () => {
    assert.match(runtime, /^COPY s6-overlay\/ \/etc\/s6-overlay\/$/m);
    const health = /^\s+CMD \["([^"]+)"\]$/m.exec(runtime)?.[1];
    assert.ok(health, 'HEALTHCHECK CMD in exec form');
    assert.ok(isExecutable(inRepo(health)), `${health} exists in the repo and is executable`);
    assert.match(runtime, /^ENTRYPOINT \["\/init"\]$/m);
  });

  it('runs on glibc with FUSE 3, and sets the environment the scripts read', () => {
    assert.match(dockerfile, /^ARG DEBIAN_BASE=docker\.io\/library\/debian:bookworm-slim$/m);
    assert.match(runtime, /^FROM \$\{DEBIAN_BASE\} AS runtime$/m);
    assert.doesNotMatch(
      dockerfile
        .split('\n')
        .filter((l) => l.startsWith('FROM'))
        .join('\n'),
      /alpine/i,
    );
    assert.match(runtime, /apt-get install -y --no-install-recommends fuse3/);
    for (const env of [
      'SPOOL_DATA=/config',
      'S6_KEEP_ENV=1',
      'S6_BEHAVIOUR_IF_STAGE2_FAILS=2',
      'SPOOL_USER=abc',
      'SPOOL_APP_DIR=/app',
    ])
      assert.ok(runtime.includes(env), `runtime stage sets ${env}`);
    assert.match(runtime, /useradd --uid 911 --user-group/);
    assert.match(runtime, /^VOLUME \/config$/m);
    assert.match(runtime, /^EXPOSE 8080$/m);
  });
});
