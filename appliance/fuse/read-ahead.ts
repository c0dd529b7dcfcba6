import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Kernel read-ahead of the mount, in KiB. FUSE 2 cannot ask for more than the kernel's 128 KiB in its INIT
 * reply, so only the mount's bdi knob raises it, and only for root with a writable /sys. 1 MiB keeps about
 * eight 128 KiB reads in flight instead of two, so the JS thread answers them in batches and the kernel has
 * work queued while it decodes; measured 1 GiB dd: 330-515 -> 545-600 MB/s, while 4 MiB fell back to 400-500
 * (more FUSE threads, more switching on 2 cores). docs/performance.md, Streaming.
 */
export const MOUNT_READ_AHEAD_KB = 1024;

/** The device ("major:minor") of the mount at `point`, from mountinfo: never stats the mount itself. */
export function mountDevice(point: string, mountinfo: string): string | null {
  const escaped = point.replace(/\\/g, '\\134').replace(/ /g, '\\040').replace(/\t/g, '\\011').replace(/\n/g, '\\012');
  let device: string | null = null;
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ');
    if (f[4] === escaped && f[2]) device = f[2]; // the last one wins: the mount on top
  }
  return device;
}

export type ReadAheadResult = { ok: true; kb: number; device: string } | { ok: false; reason: string };

/** Best effort: raises the mount's read_ahead_kb; says why not (not root, read-only /sys in a container). */
export function raiseReadAhead(
  point: string,
  kb = MOUNT_READ_AHEAD_KB,
  sys = { mountinfo: '/proc/self/mountinfo', bdiRoot: '/sys/class/bdi' },
): ReadAheadResult {
  try {
    const device = mountDevice(point, readFileSync(sys.mountinfo, 'utf8'));
    if (!device) return { ok: false, reason: `${point} is not in ${sys.mountinfo}` };
    const knob = path.join(sys.bdiRoot, device, 'read_ahead_kb');
    writeFileSync(knob, String(kb));
    return { ok: true, kb, device };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
