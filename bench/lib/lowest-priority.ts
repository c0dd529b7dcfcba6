/**
 * Commands run at the lowest CPU priority this host gives (contention bench, "probes at the lowest CPU priority"):
 * the scan's ffprobe processes get CPU only when the players, Spool and everything else on the machine leave some,
 * as when the media server probing runs on a host of its own. What is left between a viewer and its bytes is what
 * Spool controls: how it shares its link, its pool and its event loop.
 *
 * - A CPU cgroup of the bench's own, at the least weight the kernel takes (cgroup v1 `cpu.shares` 2 against 1024
 *   for any other group or task at nice 0; cgroup v2 `cpu.weight` 1 against 100): every probe is in it, so the
 *   eight probes together weigh what one task at nice 19 would, far less. Needs root (the bench runs as root).
 * - Where no cgroup can be made, `chrt --idle 0` (SCHED_IDLE: weight 3 per process against 1024).
 *
 * `wrap(cmd, args)` gives the command line to run instead; `dispose()` removes the cgroup (after its processes
 * ended: an empty cgroup only).
 */
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LowestPriority {
  /** How the priority is set, for the report. */
  label: string;
  wrap(cmd: string, args: string[]): [string, string[]];
  dispose(): void;
}

const V1 = '/sys/fs/cgroup/cpu';
const V2 = '/sys/fs/cgroup';

/** A cgroup `name` at the least CPU weight, or SCHED_IDLE when none can be made. */
export function lowestPriority(name: string): LowestPriority {
  const group = makeGroup(name);
  if (!group) {
    return {
      label: 'SCHED_IDLE (`chrt --idle 0`; no CPU cgroup could be made)',
      wrap: (cmd, args) => ['chrt', ['--idle', '0', cmd, ...args]],
      dispose: () => undefined,
    };
  }
  return {
    label: group.label,
    // the shell moves itself into the group, then becomes the command (its children stay in the group)
    wrap: (cmd, args) => ['sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', group.dir, cmd, ...args]],
    dispose: () => {
      try {
        rmdirSync(group.dir);
      } catch {
        // still holds a process (a probe killed late): the kernel keeps an empty group harmlessly
      }
    },
  };
}

function makeGroup(name: string): { dir: string; label: string } | undefined {
  const tries: Array<[root: string, marker: string, file: string, value: string, label: string]> = [
    [V1, 'cpu.shares', 'cpu.shares', '2', 'a CPU cgroup with cpu.shares 2 (cgroup v1; others 1024)'],
    [V2, 'cgroup.subtree_control', 'cpu.weight', '1', 'a CPU cgroup with cpu.weight 1 (cgroup v2; others 100)'],
  ];
  for (const [root, marker, file, value, label] of tries) {
    if (!existsSync(path.join(root, marker))) continue;
    const dir = path.join(root, name);
    try {
      if (!existsSync(dir)) mkdirSync(dir);
      writeFileSync(path.join(dir, file), value);
      return { dir, label };
    } catch {
      // not ours to make (no root, a read-only cgroup fs, the controller not enabled): the next way
    }
  }
  return undefined;
}
