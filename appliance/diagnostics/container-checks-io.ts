import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryFacts, OpenFileFacts } from './container-checks.js';

/** Where the container facts are read from: `/proc` and `/sys/fs/cgroup` unless a test points elsewhere. */
export interface ContainerRoots {
  procRoot: string;
  cgroupRoot: string;
}

export const HOST_ROOTS: ContainerRoots = { procRoot: '/proc', cgroupRoot: '/sys/fs/cgroup' };

const text = (path: string): Promise<string | null> => readFile(path, 'utf8').catch(() => null);

/** `Max open files` of <proc>/self/limits and the entries of <proc>/self/fd. */
export async function readOpenFiles(roots: ContainerRoots): Promise<OpenFileFacts | null> {
  const limits = await text(join(roots.procRoot, 'self', 'limits'));
  const m = limits && /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
  if (!m) return null;
  const num = (s: string) => (s === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(s));
  const open = await readdir(join(roots.procRoot, 'self', 'fd')).then(
    (l) => l.length,
    () => 0,
  );
  return { soft: num(m[1]!), hard: num(m[2]!), open };
}

/**
 * The memory limit and working set of this process's cgroup: v2 (`memory.max`, `memory.current`, `memory.stat`
 * inactive_file) at the path <proc>/self/cgroup names, else v1's memory controller (`memory.limit_in_bytes`,
 * `memory.usage_in_bytes`, total_inactive_file), as the kubelet and `docker stats` count a working set.
 */
export async function readMemory(roots: ContainerRoots): Promise<MemoryFacts | null> {
  const cgroups = (await text(join(roots.procRoot, 'self', 'cgroup'))) ?? '';
  const v2 = /^0::(.*)$/m.exec(cgroups)?.[1];
  if (v2 !== undefined) {
    const dir = join(roots.cgroupRoot, v2);
    const max = await text(join(dir, 'memory.max'));
    const current = await text(join(dir, 'memory.current'));
    if (max !== null && current !== null) {
      const stat = (await text(join(dir, 'memory.stat'))) ?? '';
      return facts(max.trim() === 'max' ? null : Number(max), Number(current), statValue(stat, 'inactive_file'));
    }
  }
  const v1Path = /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m.exec(cgroups)?.[1] ?? '/';
  for (const dir of [join(roots.cgroupRoot, 'memory', v1Path), join(roots.cgroupRoot, 'memory')]) {
    const limit = await text(join(dir, 'memory.limit_in_bytes'));
    const usage = await text(join(dir, 'memory.usage_in_bytes'));
    if (limit === null || usage === null) continue;
    const stat = (await text(join(dir, 'memory.stat'))) ?? '';
    // v1 says "no limit" with a huge number (PAGE_COUNTER_MAX pages): anything past 2^60 bytes.
    const bytes = Number(limit);
    return facts(bytes >= 2 ** 60 ? null : bytes, Number(usage), statValue(stat, 'total_inactive_file'));
  }
  return null;
}

function facts(limit: number | null, usage: number, inactive: number): MemoryFacts {
  return { limitBytes: limit, workingSetBytes: Math.max(0, usage - inactive) };
}

function statValue(stat: string, key: string): number {
  const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(stat);
  return m ? Number(m[1]) : 0;
}
