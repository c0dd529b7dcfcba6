import type { Migration, Store } from '../store/index.js';
import { nodeRecord, openTreeNodes } from '../vfs/tree-nodes.store.js';
import type { VfsNode } from '../vfs/types.js';
import type { HealthWrite, NewHealthRecord } from './health.port.js';
import type { HealthRecord } from './health.types.js';
import type { HealthVerdict } from './health.wire.js';

/** Applies writes inside the migration's transaction (health.store.ts passes its own record writer). */
export type SyncHealthWriter = (store: Store, writes: readonly HealthWrite[]) => void;

/** A tree node as stored before health moved out of the tree: only the fields this step reads. */
interface LegacyNode {
  path: string;
  type: 'file' | 'directory';
  createdAt: number;
  layoutId?: string;
  sourceNzbPath?: string;
  health?: string;
  missingSegments?: string[];
}

const VERDICTS = new Set<string>(['healthy', 'partial', 'corrupted']);

/** Rebuilds the store's indexes inside the migration's transaction (health.store.ts passes its own). */
export type SyncHealthReindex = (store: Store) => void;

const noReindex: SyncHealthReindex = () => {
  throw new Error('health steps 2 and 3 need the store to rebuild its indexes');
};

/** Schema steps of the health records ('health' scope in the store). */
export function healthMigrations(
  write: SyncHealthWriter,
  reindex: SyncHealthReindex = noReindex,
  indexBad: SyncHealthReindex = noReindex,
): Migration[] {
  return [
    {
      version: 1,
      description: 'verdicts and missing articles move from the tree nodes (health, missingSegments) to the records',
      up: (store) => {
        const nodes = openTreeNodes(store);
        const writes: HealthWrite[] = [];
        for (const { key, value } of [...nodes.getRange({})]) {
          const node = value as LegacyNode;
          if (node.health === undefined && node.missingSegments === undefined) continue;
          const { health, missingSegments, ...rest } = node;
          void nodes.put(key, nodeRecord(rest as VfsNode));
          const verdict = health && VERDICTS.has(health) ? (health as HealthVerdict) : null;
          const ids = missingSegments ?? [];
          if (node.type !== 'file' || !node.layoutId || (!verdict && ids.length === 0)) continue;
          writes.push({
            op: 'upsert',
            path: node.path,
            create: () => recordOf(node, verdict, ids),
            change: (r) => ({ ...r, verdict: r.verdict ?? verdict, readEvidence: evidenceOf(r, ids) }),
          });
        }
        write(store, writes);
      },
    },
    {
      version: 2,
      description: 'due files indexed by age tier; indexes of verdict times, file ages and article totals',
      up: (store) => reindex(store),
    },
    {
      version: 3,
      description: "the records with bad news for the VFS indexed ('b'), so start loads only those",
      up: (store) => indexBad(store),
    },
  ];
}

/** Ids the node knew missing that the record does not: kept as reads' evidence (checked first next time). */
function evidenceOf(r: HealthRecord, ids: readonly string[]): string[] {
  const known = new Set([...r.missing.map((m) => m.messageId), ...r.readEvidence]);
  return [...r.readEvidence, ...ids.filter((id) => !known.has(id))].slice(-1000);
}

/** A file whose verdict lived only on its node (its record was deleted): a record keeping it, checked soon. */
function recordOf(node: LegacyNode, verdict: HealthVerdict | null, ids: readonly string[]): NewHealthRecord {
  const now = Date.now();
  return {
    path: node.path,
    sourceNzbPath: node.sourceNzbPath ?? null,
    status: verdict ?? 'pending',
    settledStatus: verdict ?? 'pending',
    verdict,
    lastError: null,
    errorDetails: null,
    retryCount: 0,
    repairRetryCount: 0,
    lastCheckedAt: null,
    createdAt: now,
    fileCreatedAt: node.createdAt,
    nextCheckAt: now,
    manual: null,
    repairNextAt: null,
    missing: [],
    readEvidence: ids.slice(-1000),
    checkedSegments: 0,
    totalSegments: 0,
  };
}
