import type { ProviderExpiryEvent, ProviderQuotaEvent, RepairBrakeEvent, RepairEvent } from '../events/index.js';
import type { Notice } from './notice.js';

/** The notice of each kind, from what the event that causes it carries (docs/notifications.md lists them). */
export const notices = {
  importFailed(item: { id: number; name: string; category: string | null }, error: string, time: number): Notice {
    return {
      kind: 'import_failed',
      title: `Import failed: ${item.name}`,
      message: error || 'The import failed',
      severity: 'error',
      time,
      details: { queue_item_id: item.id, name: item.name, category: item.category, error },
    };
  },
  repair(stage: 'requested' | 'done' | 'failed', e: RepairEvent, time: number): Notice {
    const what = { requested: 'Repair requested', done: 'Repair done', failed: 'Repair failed' }[stage];
    const message = {
      requested: `Spool asked the arrs to replace ${e.path}`,
      done: `The arr blocklisted the release of ${e.path} and is searching for a replacement`,
      failed: `Could not repair ${e.path}: ${e.reason ?? 'unknown reason'}${e.will_retry ? ' (will retry)' : ''}`,
    }[stage];
    return {
      kind: `repair_${stage}`,
      title: `${what}: ${basename(e.path)}`,
      message,
      severity: stage === 'failed' ? 'error' : 'info',
      time,
      details: { path: e.path, record_id: e.record_id, manual: e.manual, reason: e.reason, will_retry: e.will_retry },
    };
  },
  repairBrake(e: RepairBrakeEvent, time: number): Notice {
    return e.engaged
      ? {
          kind: 'repair_brake_engaged',
          title: 'Repair brake engaged: arr repairs held',
          message: `${e.reason ?? 'Too many files turned bad at once'}. Resume them on the Health screen once the cause is known.`,
          severity: 'error',
          time,
          details: { engaged: true, reason: e.reason },
        }
      : {
          kind: 'repair_brake_released',
          title: 'Repair brake released: arr repairs resume',
          message: `${e.released_by ?? 'An admin'} resumed arr repairs`,
          severity: 'info',
          time,
          details: { engaged: false, released_by: e.released_by },
        };
  },
  mediaServerFailed(server: string, error: string, time: number): Notice {
    return {
      kind: 'media_server_failed',
      title: `Media server not told: ${server}`,
      message: `${error}. Spool retries with back-off; the library shows the change at the server's next scan otherwise.`,
      severity: 'warning',
      time,
      details: { server, error },
    };
  },
  providerDown(id: string, error: string | null, time: number): Notice {
    return {
      kind: 'provider_down',
      title: `Provider down: ${id}`,
      message: `Provider ${id} stopped answering${error ? `: ${error}` : ''}`,
      severity: 'error',
      time,
      details: { provider: id, error },
    };
  },
  providerUp(id: string, time: number): Notice {
    return {
      kind: 'provider_up',
      title: `Provider back: ${id}`,
      message: `Provider ${id} answers again`,
      severity: 'info',
      time,
      details: { provider: id },
    };
  },
  providerNearCap(id: string, why: string, used: number, max: number, time: number): Notice {
    return {
      kind: 'provider_near_cap',
      title: `Provider near its connection cap: ${id}`,
      message: `Provider ${id}: ${why}`,
      severity: 'warning',
      time,
      details: { provider: id, connections: used, max_connections: max },
    };
  },
  providerQuota(e: ProviderQuotaEvent, time: number): Notice {
    const size = gigabytes(e.quota_bytes);
    const resets =
      e.resets_at === null ? 'it does not reset (lifetime)' : `it resets ${new Date(e.resets_at).toISOString()}`;
    const [title, message, severity]: [string, string, Notice['severity']] =
      e.threshold === null
        ? [
            `Provider quota reset: ${e.id}`,
            `Provider ${e.id} (${e.host}) serves again: its ${e.period} quota reset`,
            'info',
          ]
        : e.threshold === 100
          ? [
              `Provider quota spent: ${e.id}`,
              `Provider ${e.id} (${e.host}) used its ${e.period} quota of ${size} and is paused; ${resets}. Reads go to the other providers.`,
              'error',
            ]
          : [
              `Provider quota at ${e.threshold}%: ${e.id}`,
              `Provider ${e.id} (${e.host}) used ${gigabytes(e.used_bytes)} of its ${e.period} quota of ${size}; ${resets}`,
              'warning',
            ];
    return {
      kind: 'provider_quota',
      title,
      message,
      severity,
      time,
      details: {
        provider: e.id,
        threshold: e.threshold,
        period: e.period,
        used_bytes: e.used_bytes,
        quota_bytes: e.quota_bytes,
        resets_at: e.resets_at === null ? null : new Date(e.resets_at).toISOString(),
      },
    };
  },
  providerExpiring(e: ProviderExpiryEvent, time: number): Notice {
    const when =
      e.days_left > 0
        ? `in ${e.days_left} day${e.days_left === 1 ? '' : 's'}`
        : e.days_left === 0
          ? 'today'
          : 'already';
    return {
      kind: 'provider_expiring',
      title: `Provider account expiring: ${e.id}`,
      message: `The account of provider ${e.id} (${e.host}) expires ${when} (${e.expires_on})`,
      severity: e.days_left > 0 ? 'warning' : 'error',
      time,
      details: { provider: e.id, expires_on: e.expires_on, days_left: e.days_left },
    };
  },
  streamStalled(path: string, stalledMs: number, time: number): Notice {
    const seconds = Math.round(stalledMs / 1000);
    return {
      kind: 'stream_stalled',
      title: `Stream stalled: ${basename(path)}`,
      message: `A read of ${path} waited ${seconds} s for data`,
      severity: 'warning',
      time,
      details: { path, stalled_seconds: seconds },
    };
  },
  healthBacklog(pending: number, grew: number, minutes: number, time: number): Notice {
    return {
      kind: 'health_backlog',
      title: 'Health backlog growing',
      message: `${pending} files wait for their first check (${grew} more than ${minutes} min ago)`,
      severity: 'warning',
      time,
      details: { pending, growth: grew, window_minutes: minutes },
    };
  },
  diskFull(where: string, error: string, time: number): Notice {
    return {
      kind: 'disk_full',
      title: 'Disk full',
      message: `The data directory has no space left (${where}); nothing was saved. Free some space.`,
      severity: 'error',
      time,
      details: { where, error },
    };
  },
};

/** Decimal gigabytes, as providers sell them. */
function gigabytes(bytes: number): string {
  return `${Math.round(bytes / 1e7) / 100} GB`;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || path;
}
