import path from 'node:path';
import type { QueuePriority, QueueRecord } from '../importer/index.js';
import { epochSeconds, megabytes, timeLeft, toUnits } from './sabnzbd.format.js';
import type { RemoteJob } from './fallback.client.js';
import {
  SAB_STATUSES,
  type SabHistorySlot,
  type SabPriorityName,
  type SabQueueSlot,
  type SabStatus,
} from './sabnzbd.types.js';

/**
 * How a Spool queue item's life reads as SABnzbd states (docs/sabnzbd.md):
 *   pending, retrying -> queue 'Queued' ('Paused' when paused); processing -> queue 'Downloading';
 *   completed -> history 'Completed' once its storage reads where the arr looks, 'Verifying' until then;
 *   repairing -> history 'Repairing' (the job is written, missing slices are being rebuilt from PAR2; the arrs wait);
 *   failed -> history 'Failed' with the reason in fail_message.
 */
export function queueStatus(r: QueueRecord): SabStatus {
  if (r.paused) return 'Paused';
  return r.status === 'processing' ? 'Downloading' : 'Queued';
}

export function priorityName(p: QueuePriority): SabPriorityName {
  return p === 2 ? 'Force' : p === 1 ? 'High' : p === -1 ? 'Low' : 'Normal';
}

/** The category as the caller sent it on addfile, byte for byte ('*' for none, as SABnzbd writes it). */
export function categoryOf(r: QueueRecord): string {
  return r.category ?? '*';
}

export function queueSlot(r: QueueRecord, index: number, nzoId: string): SabQueueSlot {
  // An import has no byte progress worth showing: a job is either waiting or being laid out (seconds).
  const size = Math.max(0, r.fileSize);
  return {
    index,
    nzo_id: nzoId,
    unpackopts: '3',
    priority: priorityName(r.priority),
    script: 'None',
    filename: r.name,
    labels: [],
    password: '',
    cat: categoryOf(r),
    mbleft: megabytes(size),
    mb: megabytes(size),
    size: toUnits(size, 'B'),
    sizeleft: toUnits(size, 'B'),
    percentage: '0',
    mbmissing: '0.00',
    direct_unpack: null,
    status: queueStatus(r),
    timeleft: timeLeft(0),
    avg_age: '0d',
    time_added: epochSeconds(r.createdAt),
  };
}

export interface HistoryFacts {
  nzoId: string;
  /** The completed job's storage reads where the arr will look (symlink target on the mount, etc.). */
  readable: boolean;
  /**
   * A forwarded job's state in the fallback SABnzbd: null when it no longer knows the job, 'unreachable' when it
   * did not answer (an outage is not a failure: the arr keeps waiting).
   */
  remote?: RemoteJob | null | 'unreachable';
}

export function historySlot(r: QueueRecord, facts: HistoryFacts): SabHistorySlot {
  const completed = r.status === 'completed';
  let status: SabStatus =
    r.status === 'repairing' ? 'Repairing' : completed ? (facts.readable ? 'Completed' : 'Verifying') : 'Failed';
  let storage = completed && facts.readable && r.storagePath ? r.storagePath : '';
  let failure = r.status === 'failed' ? failMessage(r) : '';
  if (r.forwarded) ({ status, storage, failure } = forwardedState(r.forwarded, facts.remote));
  // The arr walks up from storage to the folder named like `name`: the job folder's own name.
  const name = r.storagePath ? path.basename(r.storagePath) : r.name;
  const started = r.startedAt ?? r.createdAt;
  const finished = r.completedAt ?? r.updatedAt;
  const size = Math.max(0, Math.round(r.fileSize));
  const actions = r.forwarded
    ? [
        {
          name: 'Source',
          actions: [`Forwarded to the SABnzbd at ${r.forwarded.host} (${r.forwarded.nzoId}): ${r.forwarded.reason}`],
        },
      ]
    : [];
  return {
    completed: epochSeconds(finished),
    name,
    nzb_name: path.basename(r.nzbPath.replace(/\\/g, '/')),
    category: categoryOf(r),
    pp: 'D',
    script: 'None',
    report: '',
    url: '',
    status,
    nzo_id: facts.nzoId,
    storage,
    path: r.targetPath ?? '',
    script_line: '',
    download_time: Math.max(0, Math.round((finished - started) / 1000)),
    postproc_time: 0,
    stage_log: actions,
    downloaded: completed ? size : 0,
    completeness: null,
    fail_message: failure,
    url_info: '',
    bytes: size,
    size: toUnits(size, 'B'),
    meta: null,
    series: '',
    duplicate_key: '',
    md5sum: '',
    password: '',
    action_line: '',
    loaded: false,
    retry: false,
    archive: false,
    time_added: epochSeconds(r.createdAt),
  };
}

/** A forwarded job reads as the fallback SABnzbd reports it; Spool only names the fallback when it lost the job. */
function forwardedState(
  forwarded: NonNullable<QueueRecord['forwarded']>,
  remote: HistoryFacts['remote'],
): { status: SabStatus; storage: string; failure: string } {
  if (remote === undefined || remote === 'unreachable') return { status: 'Fetching', storage: '', failure: '' };
  if (remote === null)
    return {
      status: 'Failed',
      storage: '',
      failure: `Forwarded to the SABnzbd at ${forwarded.host}, which no longer knows job ${forwarded.nzoId}`,
    };
  const known = SAB_STATUSES.find((s) => s.toLowerCase() === remote.status.toLowerCase());
  const status: SabStatus = known ?? 'Running';
  return {
    status,
    storage: status === 'Completed' ? remote.storage : '',
    failure: status === 'Failed' ? remote.failMessage || 'Failed in the fallback SABnzbd' : '',
  };
}

/**
 * The failure in words a person understands. The importer's messages already say what went wrong (missing
 * articles, an unreadable NZB, a password); this only makes sure the slot never shows an empty reason, and never
 * the one string the arrs read as "disk full" instead of a failed release.
 */
export function failMessage(r: QueueRecord): string {
  const text = (r.errorMessage ?? '').trim() || 'The import failed for an unknown reason';
  return /^unpacking failed, write error or disk is full\?$/i.test(text) ? `Import failed: ${text}` : text;
}
