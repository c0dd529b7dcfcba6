import { arch, platform } from 'node:os';
import type { MountSetupFacts } from '../fuse/mount-setup.js';
import { mountBlocker, propagationProblem, readMountSetupFacts } from '../fuse/mount-setup.js';
import {
  DiagnosticsService,
  arrViewFindings,
  HOST_ROOTS,
  LatencyHistory,
  SpeedTestService,
  buildSupportBundle,
  rcloneVersion,
  readFolderFacts,
  runAsFromEnv,
  type DiagnosticsDeps,
  type DiagnosticsToolkit,
  type MountSetupState,
  type Versions,
} from '../diagnostics/index.js';
import type { RecentLogLines } from '../logging/recent-lines.js';
import type { SpoolMetrics } from '../metrics/index.js';
import type { NntpPool } from '../nntp/index.js';
import { patchDir } from '../repair/repair.storage.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { AppCore } from './core.js';
import { built, type Built } from './lifetime.js';
import type { Streaming } from './streaming.js';

/** What tests inject into the checks (docs/diagnostics.md, "Testing a check"); the rest is the real host. */
export type DiagnosticsOverrides = Partial<
  Pick<DiagnosticsDeps, 'roots' | 'runAs' | 'folderFacts' | 'tlsCa' | 'versions'>
> & {
  /** The mount's setup facts (a missing /dev/fuse, another mountinfo). */
  mountFacts?: () => MountSetupFacts;
  /** The speed test's step timing (ms). */
  speedTest?: { warmupMs?: number; measureMs?: number };
};

export interface DiagnosticsParts {
  pool: NntpPool;
  streaming: Streaming;
  metrics: SpoolMetrics;
  recentLines: RecentLogLines;
  version: string;
}

/** The checks on the real host (or what a test injects), the pool's round trips sampled into their stored history. */
export function createDiagnostics(
  core: AppCore,
  parts: DiagnosticsParts,
  overrides: DiagnosticsOverrides = {},
): Built<DiagnosticsToolkit> {
  const { config, clock } = core;
  const latency = new LatencyHistory(() => providerRtts(parts.pool), clock, core.stores.latency, core.logger);
  const versions = overrides.versions ?? (() => currentVersions(parts.version));
  const service = new DiagnosticsService({
    clock,
    dataDir: config.dataDir,
    patchDir: patchDir(config.dataDir),
    runAs: overrides.runAs ?? (() => runAsFromEnv()),
    folderFacts: overrides.folderFacts ?? readFolderFacts,
    roots: overrides.roots ?? HOST_ROOTS,
    mount: () => mountState(core, parts.streaming, overrides.mountFacts ?? (() => readMountSetupFacts())),
    providers: () => config.get().providers.filter((p) => p.enabled),
    tlsCa: overrides.tlsCa,
    latency,
    versions,
    rcloneNeeded: () => config.get().rclone.rc_enabled,
    extra: [() => arrViewFindings(config.get())],
  });
  const speedTest = new SpeedTestService({
    clock,
    provider: (id) => config.get().providers.find((p) => p.id === id),
    sampleArticles: async () => sampleArticles(parts.streaming.vfs),
    playersReading: () => parts.streaming.handles.snapshots().length > 0 || parts.pool.playerWaiting() > 0,
    holdConnections: (id) => parts.pool.holdConnections(id),
    applyMaxConnections: async (id, n) => void (await config.updateProvider(id, { max_connections: n })),
    tlsCa: overrides.tlsCa,
    ...overrides.speedTest,
  });
  const bundle = async () =>
    buildSupportBundle({
      config: config.get(),
      diagnostics: await service.run(),
      versions: await versions(),
      metrics: await parts.metrics.registry.metrics(),
      logLines: parts.recentLines.content(),
      now: clock.now(),
    });
  return built({ service, speedTest, bundle }, latency.start(), () => speedTest.stop());
}

function providerRtts(pool: NntpPool) {
  return pool.metrics().providers.map((p) => ({ id: p.id, rttMs: p.rtt_ms }));
}

async function currentVersions(spool: string): Promise<Versions> {
  return { spool, node: process.versions.node, rclone: await rcloneVersion(), platform: `${platform()} ${arch()}` };
}

/** The mount's own setup checks (appliance/fuse/mount-setup.ts), read now. */
async function mountState(core: AppCore, streaming: Streaming, facts: () => MountSetupFacts): Promise<MountSetupState> {
  const c = core.config.get();
  const enabled = c.rclone.mount_enabled && !c.rclone.rc_enabled;
  const f = facts();
  return {
    enabled: c.rclone.mount_enabled,
    mountPath: c.mount_path,
    blocker: enabled ? mountBlocker(f) : null,
    propagation: enabled ? propagationProblem(c.mount_path, f) : null,
    mounted: (await streaming.mount.status()).mounted,
  };
}

/** Up to 500 message-ids of library files, breadth first from the root (the speed test reads them again and again). */
function sampleArticles(vfs: VfsService, want = 500): string[] {
  const ids: string[] = [];
  const dirs = ['/'];
  while (dirs.length > 0 && ids.length < want) {
    for (const node of vfs.list(dirs.shift()!)) {
      if (node.type === 'directory') dirs.push(node.path);
      else if (node.layoutId) {
        for (const s of vfs.layout(node).segments.slice(0, want - ids.length)) ids.push(s.messageId);
      }
      if (ids.length >= want) break;
    }
  }
  return ids;
}
