import { readFileSync } from 'node:fs';

/**
 * The name of the process that opened a file through the mount (`/proc/<pid>/comm`, at most 15 characters:
 * `ffprobe`, `Plex Media Scan`, `mpv`), the FUSE reader's stand-in for a user agent: the Streams view shows it and
 * the reader classes read it (docs/streaming.md, "Reader classes"). Undefined when the pid is not visible here
 * (another pid namespace: a client in another container) or the process is gone.
 */
export function processName(pid: number, proc = '/proc'): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const name = readFileSync(`${proc}/${pid}/comm`, 'utf8').trim();
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}
