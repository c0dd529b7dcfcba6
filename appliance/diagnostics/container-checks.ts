import type { DiagnosticFinding } from './diagnostics.wire.js';
import { bytesInWords, finding } from './finding.js';

/** The container's memory as its cgroup counts it; limit null when there is none. */
export interface MemoryFacts {
  limitBytes: number | null;
  /** Usage minus the inactive page cache the kernel can drop: what counts towards the OOM killer. */
  workingSetBytes: number;
}

/** This process's open-file limit (soft, hard) and the files it has open now. */
export interface OpenFileFacts {
  soft: number;
  hard: number;
  open: number;
}

const MEMORY_WARN = 0.8;
const MEMORY_ERROR = 0.95;
/** Below this a container is too small for Spool's pool buffers, caches and FUSE reads. */
const MEMORY_TOO_SMALL = 512 * 1024 ** 2;

export function memoryFinding(m: MemoryFacts | null): DiagnosticFinding {
  if (!m) return finding('memory', 'container', 'info', 'No memory cgroup was found; the memory check was skipped.');
  if (m.limitBytes === null)
    return finding('memory', 'container', 'info', `No memory limit; working set ${bytesInWords(m.workingSetBytes)}.`);
  const share = m.workingSetBytes / m.limitBytes;
  const said =
    `The working set is ${bytesInWords(m.workingSetBytes)} of the container's ${bytesInWords(m.limitBytes)} ` +
    `memory limit (${Math.round(share * 100)}%)`;
  const fix =
    'Raise the limit (docker run --memory, compose mem_limit / deploy.resources.limits.memory), or lower what Spool ' +
    'keeps in memory (streaming read-ahead, import concurrency); at the limit the kernel kills Spool mid-stream.';
  if (share >= MEMORY_ERROR) return finding('memory', 'container', 'error', `${said}.`, fix);
  if (share >= MEMORY_WARN) return finding('memory', 'container', 'warning', `${said}.`, fix);
  if (m.limitBytes < MEMORY_TOO_SMALL)
    return finding('memory', 'container', 'warning', `${said}; a limit under 512 MiB is too small.`, fix);
  return finding('memory', 'container', 'info', `${said}.`);
}

/** Under this soft limit, a busy pool plus FUSE, WebDAV clients and LMDB can run out of descriptors. */
export const OPEN_FILES_MIN = 4096;

export function openFilesFinding(f: OpenFileFacts | null): DiagnosticFinding {
  if (!f) return finding('open_files', 'container', 'info', 'The open-file limit could not be read.');
  const fix =
    'Raise the limit: docker run --ulimit nofile=65536:65536 (compose: ulimits: nofile: 65536), or LimitNOFILE=65536 ' +
    'in a systemd unit.';
  const said = `${f.open} files open, limit ${f.soft} (hard ${f.hard})`;
  if (f.open >= f.soft * 0.8) return finding('open_files', 'container', 'error', `${said}: nearly used up.`, fix);
  if (f.soft < OPEN_FILES_MIN)
    return finding('open_files', 'container', 'warning', `${said}: under ${OPEN_FILES_MIN}.`, fix);
  return finding('open_files', 'container', 'info', `${said}.`);
}
