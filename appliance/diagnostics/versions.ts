import { execFile } from 'node:child_process';
import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';

/** The versions a support request asks for first. */
export interface Versions {
  spool: string;
  node: string;
  /** `rclone version`'s first line's number; null when rclone is not installed. */
  rclone: string | null;
  platform: string;
}

/** package.json's engines.node: Spool needs Node 20.19 or later. */
export const NODE_MIN: readonly [number, number] = [20, 19];

/** Asks the `rclone` on PATH (or `binary`) for its version; null when there is none or it fails. */
export function rcloneVersion(binary = 'rclone'): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(binary, ['version'], { timeout: 10_000 }, (err, stdout) => {
      if (err) return resolve(null);
      resolve(/^rclone v?(\S+)/m.exec(stdout)?.[1] ?? null);
    });
  });
}

/** Node below the minimum is an error; rclone missing matters only when a mount through rclone is asked for. */
export function versionFindings(v: Versions, rcloneNeeded: boolean): DiagnosticFinding[] {
  const out: DiagnosticFinding[] = [];
  const [major, minor] = v.node.split('.').map(Number) as [number, number];
  const nodeOk = major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1]);
  out.push(
    nodeOk
      ? finding('node_version', 'versions', 'info', `Spool ${v.spool} on Node ${v.node} (${v.platform}).`)
      : finding(
          'node_version',
          'versions',
          'error',
          `Node ${v.node} is older than the ${NODE_MIN.join('.')} Spool needs.`,
          'Use the Spool image, or install Node 20.19 or later (package.json "engines").',
        ),
  );
  if (v.rclone) out.push(finding('rclone_version', 'versions', 'info', `rclone ${v.rclone}.`));
  else if (rcloneNeeded)
    out.push(
      finding(
        'rclone_version',
        'versions',
        'error',
        'The rclone mount backend is on, but no rclone was found.',
        'Use the Spool image (it ships rclone), or install rclone 1.60 or later on PATH (docs/fuse.md).',
      ),
    );
  else
    out.push(
      finding(
        'rclone_version',
        'versions',
        'info',
        'rclone is not installed (not needed: the built-in mount is used).',
      ),
    );
  return out;
}
