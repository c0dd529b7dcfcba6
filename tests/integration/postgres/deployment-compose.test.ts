/**
 * The compose file of docs/deployment.md ("Several nodes on PostgreSQL"), parsed as YAML the way Compose reads it
 * (merge keys on) and checked for what the section promises: two Spool nodes and PostgreSQL, every node its own
 * `/config` volume, mount and host port, one shared database URL naming the compose database, one shared
 * import_dir. Docker is not on the build machine, so `docker compose config` cannot check it here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface Volume {
  source: string;
  target: string;
  propagation?: string;
}
interface Service {
  image?: string;
  environment?: Record<string, string | number>;
  volumes?: (string | { type: string; source: string; target: string; bind?: { propagation?: string } })[];
  ports?: string[];
  devices?: string[];
  cap_add?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

/** The first ```yaml block after `heading` in docs/deployment.md. */
function composeAfter(heading: string): string {
  const doc = readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8');
  const at = doc.indexOf(heading);
  assert.ok(at >= 0, `docs/deployment.md has no '${heading}'`);
  const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(block, `no yaml block after '${heading}'`);
  return block[1]!;
}

function volumesOf(s: Service): Volume[] {
  return (s.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source, target: v.target, propagation: v.bind?.propagation };
    const [source, target] = v.split(':') as [string, string];
    return { source, target };
  });
}

const services = (): Record<string, Service> => {
  const doc = parse(composeAfter('### Compose: two nodes and PostgreSQL'), { merge: true }) as {
    services: Record<string, Service>;
  };
  return doc.services;
};

test('the compose file parses: PostgreSQL and two Spool nodes', () => {
  const all = services();
  assert.deepEqual(Object.keys(all).sort(), ['postgres', 'spool-a', 'spool-b']);
  assert.match(String(all.postgres!.image), /^postgres:\d+/);
  assert.ok(all.postgres!.healthcheck?.test.join(' ').includes('pg_isready'));
  for (const name of ['spool-a', 'spool-b']) {
    const node = all[name]!;
    assert.equal(node.image, 'spool', `${name}: the merged node settings`);
    assert.deepEqual(node.devices, ['/dev/fuse:/dev/fuse'], name);
    assert.deepEqual(node.cap_add, ['SYS_ADMIN'], name);
    assert.equal(node.depends_on?.postgres?.condition, 'service_healthy', name);
  }
});

test('both nodes name the same database, the one the compose file creates', () => {
  const all = services();
  const pg = all.postgres!.environment!;
  const urls = ['spool-a', 'spool-b'].map((n) => String(all[n]!.environment?.SPOOL_DATABASE_URL));
  assert.equal(urls[0], urls[1]);
  const url = new URL(urls[0]!);
  assert.equal(url.protocol, 'postgres:');
  assert.equal(url.hostname, 'postgres', 'the compose service name');
  assert.equal(url.username, pg.POSTGRES_USER);
  assert.equal(url.password, pg.POSTGRES_PASSWORD);
  assert.equal(url.pathname, `/${pg.POSTGRES_DB}`);
});

test('every node has its own /config, mount and port; import_dir is shared', () => {
  const all = services();
  const a = volumesOf(all['spool-a']!);
  const b = volumesOf(all['spool-b']!);
  const at = (vs: Volume[], target: string) => {
    const v = vs.find((x) => x.target === target);
    assert.ok(v, `a volume at ${target}`);
    return v;
  };
  assert.notEqual(at(a, '/config').source, at(b, '/config').source, 'never one LMDB replica for two processes');
  assert.notEqual(at(a, '/mnt/spool').source, at(b, '/mnt/spool').source, 'a mount per node');
  for (const vs of [a, b]) assert.equal(at(vs, '/mnt/spool').propagation, 'rshared');
  assert.equal(at(a, '/downloads').source, at(b, '/downloads').source, 'the job folders, whichever node leads');
  const ports = ['spool-a', 'spool-b'].map((n) => all[n]!.ports![0]!.split(':'));
  assert.notEqual(ports[0]![0], ports[1]![0], 'distinct host ports');
  const ids = ['spool-a', 'spool-b'].map((n) => all[n]!.environment?.SPOOL_NODE_ID);
  assert.notEqual(ids[0], ids[1], 'distinct node names in the logs');
  for (const p of ports) assert.equal(p[1], '8080', 'the image listens on 8080');
});

test('every SPOOL_ variable the nodes set is one Spool reads (appliance/main.ts)', () => {
  const main = readFileSync(join(ROOT, 'appliance', 'main.ts'), 'utf8');
  const all = services();
  for (const name of ['spool-a', 'spool-b'])
    for (const key of Object.keys(all[name]!.environment ?? {}).filter((k) => k.startsWith('SPOOL_')))
      assert.ok(main.includes(`process.env.${key}`), `${name}: ${key} is read by main.ts`);
});
