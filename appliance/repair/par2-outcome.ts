/**
 * What a PAR2 repair came to, the one outcome both callers read: the repair loop after a health verdict
 * (par2-step.ts) and the importer before it exposes a job (appliance/importer/import-repair.ts). `not_coverable`
 * falls back to the arr repair (or fails the import); `unreachable` is retried later: an outage proves nothing.
 */
export type Par2Outcome =
  | { kind: 'repaired'; slices: number; bytes: number; paths: string[] }
  | { kind: 'not_coverable'; reason: string }
  | { kind: 'unreachable'; reason: string };
