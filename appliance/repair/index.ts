/**
 * Repair: everything Spool does about a file a health verdict found broken, in one home (docs/health.md "Check,
 * decide, act"). Health checks and decides; this domain acts, through the `VerdictActions` health hands each
 * verdict to (`createRepairs` in repair.domain.ts builds them).
 *
 * - The loop (`repair.loop.ts`): PAR2 first (`par2-step.ts`), then the arr that owns the file, with back-offs.
 * - PAR2 in place (`par2-repair.service.ts`, its one outcome type in `par2-outcome.ts`): the kept PAR2 files of each
 *   import, the recovery set's slices read on the pool's repair lane, the solve through appliance/par2, the patch
 *   store of rebuilt bytes the reader serves. The importer uses the same service before it exposes a job.
 * - The arr (`arr-repair.service.ts`): find the Radarr/Sonarr record of the file, delete it, blocklist the grab,
 *   search again (docs/arrs.md "Repair"); the arr client itself stays in appliance/arrs.
 * - The brake (`repair.brake.ts`, `repair.holds.ts`): no arr deletes anything during a wave of bad verdicts.
 * - The ledger (`repair-ledger.port.ts`): the brake's state, the repair history, the broken releases, repair's own
 *   storage domain (`repair-ledger.storage.ts`); `repair.control.ts` is what the console and the importer ask of it.
 *
 * New ways of acting on a verdict (a file kept listed while it is repaired, a replacement asked of the arr before
 * the old file goes, a media server refreshed) belong here, behind createRepairs; health does not change for them.
 */
export type { FilePatches, KeptPar2File, Par2FileStore, PatchPiece, PatchRange, PatchStore } from './repair.port.js';
export type { Par2Outcome } from './par2-outcome.js';
export {
  Par2RepairService,
  type Par2RepairDeps,
  type Par2RepairSettings,
  type RepairFiles,
} from './par2-repair.service.js';
export { ArrRepairService, type ArrRepairDeps, type ArrRepairOutcome, type RepairInput } from './arr-repair.service.js';
export { RepairLoop, type FileRepairer, type RepairOutcome, type RepairSettings } from './repair.loop.js';
export { RepairBrake, type BrakeSettings } from './repair.brake.js';
export { RepairControl, REPAIR_HISTORY_KEEP } from './repair.control.js';
export { createRepairs, type Repairs, type RepairsDeps } from './repair.domain.js';
export type { Par2Repairer } from './par2-step.js';
export type { ReplacementFiles } from './replacement-watch.js';
export type {
  BrakeState,
  BrokenRelease,
  RepairHistoryEntry,
  RepairLedger,
  RepairMethod,
  RepairResult,
} from './repair-ledger.port.js';
