import type { HealthRecord } from '../health/health.types.js';
import type { RepairBrake } from './repair.brake.js';

/** Per file: at most this many arr repairs ... */
export const FILE_REPAIR_CAP = 3;
/** ... within this long (docs/health.md, "The repair brake"). */
export const FILE_REPAIR_WINDOW_MS = 6 * 3600_000;
/** While the brake holds, a held repair is looked at again this often (it runs once an admin resumes). */
export const HELD_RECHECK_MS = 15 * 60_000;

export interface RepairHold {
  reason: string;
  /** When the file's repair may be tried again. */
  until: number;
}

/** Why an arr repair of `record` may not run at `now` (the brake, or the file's cap), or null when it may. */
export function repairHold(record: HealthRecord, now: number, brake: RepairBrake): RepairHold | null {
  const braked = brake.heldReason();
  if (braked) return { reason: `Repair held by the repair brake: ${braked}`, until: now + HELD_RECHECK_MS };
  const recent = recentArrRepairs(record, now);
  if (recent.length < FILE_REPAIR_CAP) return null;
  const until = recent[0]! + FILE_REPAIR_WINDOW_MS;
  return {
    reason: `Repair held: this file had ${recent.length} arr repairs in the last 6 h; the next not before ${new Date(until).toISOString()}`,
    until,
  };
}

/** The times of the file's arr repairs within the cap's window, oldest first. */
export function recentArrRepairs(record: HealthRecord, now: number): number[] {
  return (record.arrRepairsAt ?? []).filter((t) => t > now - FILE_REPAIR_WINDOW_MS).sort((a, b) => a - b);
}
