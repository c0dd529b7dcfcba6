// Builds the project's Dockerfile with podman (Debian's podman and runc; no Docker engine needed) and prints the
// image's size. Used by `npm test -- container` (tests/container/) and by hand:
//   node scripts/image.mjs            # builds localhost/spool:ci
// Where the official base (debian:bookworm-slim) cannot be pulled, the base is a Debian bookworm rootfs made
// with mmdebstrap from the apt mirror and imported with `podman import`; where GitHub's s6-overlay release
// tarballs cannot be fetched, the image is built with SUPERVISOR=debian-s6 (Debian's s6 and execline run the same
// service tree). Both are build arguments of the one Dockerfile; each choice is printed. Nothing is cached
// outside the repository (the rootfs tarball goes to .tmp/image/).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const IMAGE = process.env.SPOOL_IMAGE ?? 'localhost/spool:ci';
/** The image plus ffmpeg: the second container of the mount test runs ffprobe from it (tests/container/). */
export const PROBE_IMAGE = `${IMAGE}-ffprobe`;
const OFFICIAL_BASE = 'docker.io/library/debian:bookworm-slim';
const ROOTFS_BASE = 'localhost/spool-debian:bookworm';
const S6_OVERLAY_PROBE =
  'https://github.com/just-containers/s6-overlay/releases/download/v3.2.0.2/s6-overlay-noarch.tar.xz';
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The hard limit of a resource from /proc/self/limits ("Max open files" ...). */
function hardLimit(name) {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(name));
  const hard = line?.slice(26).trim().split(/\s+/)[1];
  return hard && /^\d+$/.test(hard) ? Number(hard) : undefined;
}

/** podman's global options: runc with cgroupfs (crun fails on these machines). */
export function podmanGlobal() {
  return ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
}

/**
 * The ulimits every container and build step gets. By default podman asks runc for RLIMIT_NOFILE 1048576 and
 * RLIMIT_NPROC 4194304, above the hard limits of a host without CAP_SYS_RESOURCE, which then refuses ("error
 * setting rlimit type 7: operation not permitted"). runc sets them from conmon, whose own RLIMIT_NPROC was 32768
 * here (below the shell's 96364), so nothing above that is asked for.
 */
export function ulimitArgs() {
  const args = [];
  const nofile = Math.min(hardLimit('Max open files') ?? 32768, 32768);
  const nproc = Math.min(hardLimit('Max processes') ?? 32768, 32768);
  args.push('--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`);
  return args;
}

export function podman(args, opts = {}) {
  return execFileSync('podman', [...podmanGlobal(), ...args], { encoding: 'utf8', ...opts });
}

function step(title) {
  console.log(`\n== image: ${title}`);
}

/** The base image: the official one when it can be pulled, else a mmdebstrap rootfs (built once per run). */
function baseImage() {
  if (process.env.SPOOL_IMAGE_BASE) return process.env.SPOOL_IMAGE_BASE;
  const pull = spawnSync('podman', [...podmanGlobal(), 'pull', '-q', OFFICIAL_BASE], { encoding: 'utf8' });
  if (pull.status === 0) return OFFICIAL_BASE;
  console.log(`cannot pull ${OFFICIAL_BASE}: ${(pull.stderr || '').trim().split('\n').pop()}`);
  if (spawnSync('podman', ['image', 'exists', ROOTFS_BASE]).status === 0) {
    console.log(`using ${ROOTFS_BASE}, imported earlier in this run`);
    return ROOTFS_BASE;
  }
  step(`Debian bookworm rootfs with mmdebstrap -> ${ROOTFS_BASE}`);
  const dir = join(ROOT, '.tmp', 'image');
  mkdirSync(dir, { recursive: true });
  const tar = join(dir, 'bookworm-rootfs.tar');
  // minbase without usrmerge's perl (the merged-usr hook), documentation and translations: like debian:*-slim.
  execFileSync(
    'mmdebstrap',
    [
      '--variant=minbase',
      '--format=tar',
      '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
      '--aptopt=APT::Install-Recommends "false"',
      '--dpkgopt=path-exclude=/usr/share/man/*',
      '--dpkgopt=path-exclude=/usr/share/locale/*',
      '--dpkgopt=path-exclude=/usr/share/info/*',
      '--dpkgopt=path-exclude=/usr/share/doc/*',
      '--dpkgopt=path-include=/usr/share/doc/*/copyright',
      'bookworm',
      tar,
      process.env.SPOOL_IMAGE_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian',
    ],
    { stdio: 'inherit' },
  );
  podman(['import', '--quiet', tar, ROOTFS_BASE], { stdio: 'inherit' });
  return ROOTFS_BASE;
}

/** s6-overlay when its release tarballs can be fetched, else Debian's s6 (SUPERVISOR=debian-s6). */
async function supervisor() {
  if (process.env.SPOOL_IMAGE_SUPERVISOR) return process.env.SPOOL_IMAGE_SUPERVISOR;
  try {
    const res = await fetch(S6_OVERLAY_PROBE, { method: 'HEAD', signal: AbortSignal.timeout(15_000) });
    if (res.ok) return 's6-overlay';
    console.log(`s6-overlay's release answers ${res.status}`);
  } catch (err) {
    console.log(`cannot fetch s6-overlay's release: ${err.cause?.message ?? err.message}`);
  }
  return 'debian-s6';
}

export function imageSizeBytes(image = IMAGE) {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]).trim());
}

export async function buildImage() {
  const base = baseImage();
  const sup = await supervisor();
  step(`podman build ${IMAGE} (DEBIAN_BASE=${base}, SUPERVISOR=${sup})`);
  const started = Date.now();
  const args = ['build', '--format', 'docker', ...ulimitArgs(), '--build-arg', `DEBIAN_BASE=${base}`];
  args.push('--build-arg', `SUPERVISOR=${sup}`, '-t', IMAGE);
  // What this host trusts (e.g. a TLS-inspecting proxy's CA) is what the build stage trusts for npm and curl.
  if (existsSync(HOST_CA_BUNDLE)) args.push('--secret', `id=extra-ca-certificates,src=${HOST_CA_BUNDLE}`);
  podman([...args, ROOT], { stdio: 'inherit' });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  step(`${IMAGE}: ${(imageSizeBytes() / 1e6).toFixed(0)} MB, built in ${minutes} min`);
  step(`${PROBE_IMAGE} (the image plus Debian's ffmpeg, for ffprobe)`);
  const context = join(ROOT, '.tmp', 'image', 'probe');
  mkdirSync(context, { recursive: true });
  const probeArgs = ['build', '--format', 'docker', ...ulimitArgs(), '--build-arg', `IMAGE=${IMAGE}`];
  writeFileSync(join(context, 'Dockerfile'), PROBE_DOCKERFILE);
  podman([...probeArgs, '-t', PROBE_IMAGE, context], { stdio: 'inherit' });
}

const PROBE_DOCKERFILE = `ARG IMAGE
FROM \${IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
`;

if (import.meta.url === `file://${process.argv[1]}`) await buildImage();
