import { api } from './client';
import type {
  DiagnosticsReport,
  SpeedTestApply,
  SpeedTestRequest,
  SpeedTestStatus,
} from '../../../appliance/diagnostics/diagnostics.wire';

/** The operator's toolkit (docs/diagnostics.md): the checks, the provider speed test, the support bundle. */
export const diagnosticsApi = {
  run: () => api.get<DiagnosticsReport>('/system/diagnostics'),
  speedTest: () => api.get<SpeedTestStatus>('/system/speedtest'),
  startSpeedTest: (body: SpeedTestRequest) => api.post<SpeedTestStatus>('/system/speedtest', body),
  applySpeedTest: (body: SpeedTestApply) => api.post<SpeedTestApply>('/system/speedtest/apply', body),
};

/** A plain download: the browser sends the session cookie and saves the .tar.gz. */
export const SUPPORT_BUNDLE_URL = '/api/system/support-bundle';
