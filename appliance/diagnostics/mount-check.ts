import type { DiagnosticFinding } from './diagnostics.wire.js';
import { finding } from './finding.js';

/**
 * The FUSE mount's setup as the mount's own checks judge it (appliance/fuse/mount-setup.ts, handed in by the
 * composition root so each problem is worded once): why it cannot start, or why the host will not see it.
 */
export interface MountSetupState {
  enabled: boolean;
  mountPath: string;
  /** mountBlocker's sentence, or null. */
  blocker: string | null;
  /** propagationProblem's sentence, or null. */
  propagation: string | null;
  /** Whether the mount is up now (mount status). */
  mounted: boolean;
}

/** The mount-setup sentences name their fix after the problem ("Start the container with ..."): split them. */
function split(sentence: string): { message: string; fix: string } {
  const m = /^(.*?\.)\s+(.*)$/s.exec(sentence);
  return m ? { message: m[1]!, fix: m[2]! } : { message: sentence, fix: sentence };
}

export function mountFindings(s: MountSetupState): DiagnosticFinding[] {
  if (!s.enabled)
    return [
      finding('fuse', 'mount', 'info', 'The FUSE mount is off (rclone.mount_enabled); WebDAV serves the library.'),
    ];
  const out: DiagnosticFinding[] = [];
  for (const [check, sentence] of [
    ['fuse', s.blocker],
    ['mount_propagation', s.propagation],
  ] as const) {
    if (!sentence) continue;
    const { message, fix } = split(sentence);
    out.push(finding(check, 'mount', check === 'fuse' ? 'error' : 'warning', message, fix));
  }
  if (out.length === 0)
    out.push(
      finding(
        'fuse',
        'mount',
        'info',
        `/dev/fuse is usable and ${s.mountPath} ${s.mounted ? 'is mounted' : 'can be mounted'}.`,
      ),
    );
  return out;
}
