/** PAR2 repair (docs/health.md "PAR2 repair"): the patch store, the kept PAR2 files, the repair service. */
export type { FilePatches, KeptPar2File, Par2FileStore, PatchPiece, PatchRange, PatchStore } from './repair.port.js';
export {
  Par2RepairService,
  type Par2Outcome,
  type Par2RepairDeps,
  type Par2RepairSettings,
  type RepairFiles,
} from './par2-repair.service.js';
