/** The operator's toolkit: diagnostics, the provider speed test, the support bundle (docs/diagnostics.md). */
export { DiagnosticsService, type DiagnosticsDeps } from './diagnostics.service.js';
export { arrViewFindings } from './arr-view-check.js';
export { HOST_ROOTS, type ContainerRoots } from './container-checks-io.js';
export { readFolderFacts, runAsFromEnv } from './folder-facts.js';
export { LatencyHistory, type ProviderRtt } from './latency-history.js';
export type { MountSetupState } from './mount-check.js';
export { rcloneVersion, type Versions } from './versions.js';
export { SpeedTestService, type SpeedTestDeps } from './speed-test.service.js';
export { buildSupportBundle, type SupportBundleParts } from './support-bundle.js';
export { secretValues } from './secret-values.js';

import type { DiagnosticsService as Service } from './diagnostics.service.js';
import type { SpeedTestService as SpeedTest } from './speed-test.service.js';

/** The operator's toolkit as the routes take it: the checks, the speed test, the support bundle. */
export interface DiagnosticsToolkit {
  service: Service;
  speedTest: SpeedTest;
  /** The support bundle, a .tar.gz. */
  bundle(): Promise<Buffer>;
}
