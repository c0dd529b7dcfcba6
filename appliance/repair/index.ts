/**
 * Repair: everything Spool does about a file a health verdict found broken (docs/health.md "Repair"), in one home.
 *
 * - The loop (`repair.loop.ts`): PAR2 first (`par2-step.ts`), then the arr that owns the file, with back-offs.
 * - PAR2 in place (`par2-repair.service.ts`): the kept PAR2 files of each import, the recovery set's slices read on
 *   the pool's repair lane, the solve through appliance/par2, the patch store of rebuilt bytes the reader serves.
 * - The arr (`arr-repair.service.ts`): find the Radarr/Sonarr record of the file, delete it, blocklist the grab,
 *   search again (docs/arrs.md "Repair"); the arr client itself stays in appliance/arrs.
 * - The brake (`repair.brake.ts`, `repair.holds.ts`): no arr deletes anything during a wave of bad verdicts.
 * - The ledger (`repair-ledger.port.ts`): the brake's state, the repair history, the broken releases;
 *   `repair.control.ts` is what the console and the importer ask of it.
 */
export type { FilePatches, KeptPar2File, Par2FileStore, PatchPiece, PatchRange, PatchStore } from './repair.port.js';
export {
  Par2RepairService,
  type Par2Outcome,
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
export type {
  BrakeState,
  BrokenRelease,
  RepairHistoryEntry,
  RepairLedger,
  RepairMethod,
  RepairResult,
} from './repair-ledger.port.js';
