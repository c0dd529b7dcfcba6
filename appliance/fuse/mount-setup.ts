import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

/**
 * Setup problems of the FUSE mount that an operator fixes in the container's run options (docs/deployment.md, "The
 * FUSE mount"), each named with its fix. The mount service checks them so a bad setup is reported in the log and in
 * GET /api/rclone/mount/status (shown by the console) in words, not as libfuse's errno; WebDAV keeps serving.
 */

/** CAP_SYS_ADMIN's bit in the capability sets of /proc/<pid>/status (linux/capability.h). */
const CAP_SYS_ADMIN = 21n;

/** What the checks read, injectable for tests. */
export interface MountSetupFacts {
  /** The FUSE device, e.g. /dev/fuse. */
  fuseDevice: string;
  fuseDeviceExists: boolean;
  /** Whether this process may open the device for reading and writing (libfuse opens it as the caller). */
  fuseDeviceUsable: boolean;
  /** This process's uid, named in the message. */
  uid: number;
  /** Whether the uid has a user name (fusermount3, which mounts for non-root users, refuses one without). */
  uidNamed: boolean;
  /** The text of /proc/self/status (its CapBnd line). */
  procStatus: string;
  /** The text of /proc/self/mountinfo. */
  mountinfo: string;
  /**
   * Whether this process runs in a container: the image sets SPOOL_IN_CONTAINER=1; Podman also writes
   * /run/.containerenv. (Docker's /.dockerenv is no sign: hosts built from images keep it.)
   */
  inContainer: boolean;
}

export function readMountSetupFacts(fuseDevice = '/dev/fuse'): MountSetupFacts {
  const read = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    fuseDevice,
    fuseDeviceExists: existsSync(fuseDevice),
    fuseDeviceUsable: canReadWrite(fuseDevice),
    uid: process.getuid?.() ?? -1,
    uidNamed: hasUserName(),
    procStatus: read('/proc/self/status'),
    mountinfo: read('/proc/self/mountinfo'),
    inContainer: process.env.SPOOL_IN_CONTAINER === '1' || existsSync('/run/.containerenv'),
  };
}

/**
 * Why a FUSE mount cannot start at all here, or null. Mounting (directly as root, or through the setuid
 * fusermount3 for the service user) needs the device and CAP_SYS_ADMIN in the bounding set: a capability missing
 * there is one no process of the container can ever gain.
 */
export function mountBlocker(f: MountSetupFacts): string | null {
  if (!f.fuseDeviceExists)
    return (
      `No ${f.fuseDevice} here, so the FUSE mount cannot start (WebDAV keeps working). ` +
      'Start the container with --device /dev/fuse --cap-add SYS_ADMIN (docs/deployment.md, "The FUSE mount").'
    );
  if (!f.fuseDeviceUsable)
    return (
      `${f.fuseDevice} is not readable and writable by uid ${f.uid}, so the FUSE mount cannot start (WebDAV keeps ` +
      "working). Run the image as root (without --user), so its init step gives PGID access, or make the host's " +
      `device usable by everyone as most distributions do (chmod 0666 ${f.fuseDevice}).`
    );
  if (!f.uidNamed)
    return (
      `uid ${f.uid} has no user name here, and fusermount3 mounts only for named users, so the FUSE mount cannot ` +
      'start (WebDAV keeps working). Run the image as root (without --user) so its init step names PUID, or use ' +
      "--user 911:911 (the image's abc)."
    );
  const bounding = /^CapBnd:\s*([0-9a-f]+)$/m.exec(f.procStatus)?.[1];
  if (bounding !== undefined && ((BigInt(`0x${bounding}`) >> CAP_SYS_ADMIN) & 1n) === 0n)
    return (
      'The container lacks the SYS_ADMIN capability that mounting FUSE needs, so the mount cannot start (WebDAV ' +
      'keeps working). Add --cap-add SYS_ADMIN (compose: cap_add: [SYS_ADMIN]); with AppArmor also ' +
      '--security-opt apparmor:unconfined (docs/deployment.md, "The FUSE mount").'
    );
  return null;
}

/**
 * In a container: why the mount at `point` will not be seen by the host and other containers, or null. The mount
 * propagates only when the mount it sits on (the bind of the mount path, or the one holding it) is shared.
 */
export function propagationProblem(point: string, f: MountSetupFacts): string | null {
  if (!f.inContainer) return null;
  const holder = holdingMount(point, f.mountinfo);
  if (!holder || holder.shared) return null;
  return (
    `The mount path ${point} is not on a shared mount, so the host and other containers (Jellyfin, Plex, the ` +
    `arrs) do not see the files. Bind a host directory there with shared propagation: -v /mnt/spool:${point}:rshared ` +
    '(compose: bind.propagation: rshared; docs/deployment.md, "The mount outside the container").'
  );
}

interface MountEntry {
  mountPoint: string;
  shared: boolean;
}

/**
 * The mount `point` lives on: the deepest mount point that is `point` or one of its parents, not counting a FUSE
 * mount at `point` itself (ours).
 */
export function holdingMount(point: string, mountinfo: string): MountEntry | null {
  let best: MountEntry | null = null;
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || right === undefined) continue;
    const fields = left.split(' ');
    const mountPoint = unescapeMountPath(fields[4] ?? '');
    if (mountPoint === point && right.startsWith('fuse')) continue;
    if (!isAtOrUnder(point, mountPoint)) continue;
    // Later lines are mounted over earlier ones at the same point; the deeper point wins.
    if (!best || mountPoint.length >= best.mountPoint.length)
      best = { mountPoint, shared: fields.slice(6).some((o) => o.startsWith('shared:')) };
  }
  return best;
}

function isAtOrUnder(point: string, mountPoint: string): boolean {
  if (mountPoint === '/') return point.startsWith('/');
  return point === mountPoint || point.startsWith(`${mountPoint}/`);
}

/** mountinfo escapes space, tab, newline and backslash as octal (\040 ...). */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

function canReadWrite(path: string): boolean {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** os.userInfo() reads the passwd entry of the uid and throws when there is none. */
function hasUserName(): boolean {
  try {
    return userInfo().username !== '';
  } catch {
    return false;
  }
}
