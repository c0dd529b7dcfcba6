import type { Clock } from '../clock/clock.js';
import type { ProviderConfig } from '../nntp/index.js';
import { readMemory, readOpenFiles, type ContainerRoots } from './container-checks-io.js';
import { memoryFinding, openFilesFinding } from './container-checks.js';
import {
  DIAGNOSTIC_SECTIONS,
  type DiagnosticFinding,
  type DiagnosticLevel,
  type DiagnosticsReport,
} from './diagnostics.wire.js';
import type { LatencyHistory } from './latency-history.js';
import { mountFindings, type MountSetupState } from './mount-check.js';
import { certificateFinding, clockFinding, reachFinding } from './provider-checks.js';
import { probeProvider } from './provider-probe.js';
import {
  freeSpaceFinding,
  networkFsFinding,
  ownershipFinding,
  type FolderFacts,
  type RunAs,
} from './storage-checks.js';
import { versionFindings, type Versions } from './versions.js';

/** Everything the checks read, each injectable (docs/diagnostics.md, "Testing a check"). */
export interface DiagnosticsDeps {
  clock: Pick<Clock, 'now'>;
  /** The data dir (/config in the container) and the PAR2 patch store. */
  dataDir: string;
  patchDir: string;
  runAs: () => RunAs;
  folderFacts: (path: string) => Promise<FolderFacts>;
  roots: ContainerRoots;
  mount: () => Promise<MountSetupState>;
  /** The providers to probe (enabled ones). */
  providers: () => ProviderConfig[];
  /** Extra CAs the probes trust (tests' private CAs); each provider's own `ca` is always added. */
  tlsCa?: string;
  latency: Pick<LatencyHistory, 'findings'>;
  versions: () => Promise<Versions>;
  rcloneNeeded: () => boolean;
  /** More checks (the arrs' view of the complete dir), run beside the rest. */
  extra?: Array<() => Promise<DiagnosticFinding[]>>;
}

/** GET /api/system/diagnostics: every check, each finding with its fix (docs/diagnostics.md). */
export class DiagnosticsService {
  constructor(private readonly d: DiagnosticsDeps) {}

  async run(): Promise<DiagnosticsReport> {
    const parts = await Promise.all([
      this.d.mount().then(mountFindings),
      this.storage(),
      this.container(),
      this.providerFindings(),
      Promise.resolve(this.d.latency.findings()),
      this.d.versions().then((v) => versionFindings(v, this.d.rcloneNeeded())),
      ...(this.d.extra ?? []).map((check) => check()),
    ]);
    const findings = sortFindings(parts.flat());
    const counts: Record<DiagnosticLevel, number> = { info: 0, warning: 0, error: 0 };
    for (const f of findings) counts[f.level]++;
    return { checked_at: new Date(this.d.clock.now()).toISOString(), findings, counts };
  }

  private async storage(): Promise<DiagnosticFinding[]> {
    const data = await this.d.folderFacts(this.d.dataDir);
    const patches = await this.d.folderFacts(this.d.patchDir);
    const out = [ownershipFinding(data, this.d.runAs()), freeSpaceFinding('the data dir', data)];
    // The patch store usually sits in the data dir: one line for one disk.
    if (patches.owner && patches.fs && (patches.fs.totalBytes !== data.fs?.totalBytes || !data.fs))
      out.push(freeSpaceFinding('the PAR2 patch store', patches));
    const network = networkFsFinding(data);
    if (network) out.push(network);
    return out;
  }

  private async container(): Promise<DiagnosticFinding[]> {
    const [memory, files] = await Promise.all([readMemory(this.d.roots), readOpenFiles(this.d.roots)]);
    return [memoryFinding(memory), openFilesFinding(files)];
  }

  private async providerFindings(): Promise<DiagnosticFinding[]> {
    const probes = await Promise.all(
      this.d.providers().map((p) => probeProvider(p, { clock: this.d.clock, tlsCa: this.d.tlsCa })),
    );
    const now = this.d.clock.now();
    return probes.flatMap((p) =>
      [reachFinding(p), clockFinding(p), certificateFinding(p, now)].filter((f): f is DiagnosticFinding => !!f),
    );
  }
}

const LEVEL_ORDER: Record<DiagnosticLevel, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then facts; within a level, by section in the card's order. */
function sortFindings(list: DiagnosticFinding[]): DiagnosticFinding[] {
  const section = (f: DiagnosticFinding) => DIAGNOSTIC_SECTIONS.indexOf(f.section);
  return [...list].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || section(a) - section(b));
}
