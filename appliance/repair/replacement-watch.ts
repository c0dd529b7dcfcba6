import type { Clock } from '../clock/clock.js';
import type { EventSink, SpoolEvents } from '../events/index.js';
import type { HealthRecord } from '../health/health.types.js';
import type { Logger } from '../logging/logger.js';
import type { AwaitedReplacement, ReplacementState } from './arr-replacement.js';

/** What the loop needs of Spool's side of a replacement (wired in app/health.ts). */
export interface ReplacementFiles {
  /**
   * The new download's main file once imported into Spool and its first bytes read through the pool; else why not
   * yet (still importing, not a download of this Spool, its first article gone).
   */
  firstBytes(downloadId: string): Promise<{ path: string } | { pending: string }>;
  /** Retires the old release's file: out of the tree (its record and patches go with it). */
  retire(path: string): Promise<void>;
}

/** How often a kept file's replacement is looked for, and how long before the repair is given up. */
export const REPLACEMENT_POLL_MS = 60_000;
export const REPLACEMENT_WAIT_MS = 7 * 24 * 3600_000;

/** What following a replacement asks of the arr repair (arr-repair.service.ts). */
export interface ReplacementAsker {
  replacementOf?(a: AwaitedReplacement): Promise<ReplacementState>;
  giveUp?(a: AwaitedReplacement): Promise<void>;
}

export interface FollowDeps {
  repairer: ReplacementAsker | undefined;
  files: ReplacementFiles | undefined;
  clock: Clock;
  logger: Logger;
  events?: EventSink<SpoolEvents>;
  /** Announces the repair given up (repair.failed). */
  failed(reason: string): void;
}

/**
 * One look at a kept file's replacement (docs/health.md "Continuity"). The old file stays listed and served until
 * the arr imported a replacement AND that replacement's first bytes read through the pool; only then is the old
 * release retired (the health record goes with it) and the media servers told. An arr that cannot be asked, or a
 * replacement not readable yet, is looked at again later; after REPLACEMENT_WAIT_MS with no replacement the arr
 * gets the file's quality back and the old file simply stays, and a replacement still unreadable by then ends the
 * watch too (the arr keeps the file it imported; the old release stays). Answers the record's patch, or null once retired.
 */
export async function followReplacement(d: FollowDeps, r: HealthRecord): Promise<Partial<HealthRecord> | null> {
  const a = r.awaiting!;
  const now = d.clock.now();
  const later = (lastError: string | null): Partial<HealthRecord> => ({
    repairNextAt: now + REPLACEMENT_POLL_MS,
    lastError,
  });
  if (!d.repairer?.replacementOf || !d.files) return later(null);
  let state;
  try {
    state = await d.repairer.replacementOf(a);
  } catch (err) {
    return later(`Waiting for the arr's replacement; the arr could not be asked: ${(err as Error).message}`);
  }
  if (state.state === 'waiting') {
    if (now - a.since < REPLACEMENT_WAIT_MS) return later(null);
    await d.repairer
      .giveUp?.(a)
      .catch((err: Error) => d.logger.warn('could not restore the file quality', { error: err.message }));
    const reason = `No replacement was imported in ${Math.round(REPLACEMENT_WAIT_MS / 86_400_000)} days: the old file stays, its quality is back in ${a.instance}`;
    d.failed(reason);
    return { awaiting: null, repairNextAt: null, lastError: reason };
  }
  if (state.state === 'gone') {
    const reason = `${a.instance} no longer has the file (deleted there): nothing to replace, the old file stays`;
    d.failed(reason);
    return { awaiting: null, repairNextAt: null, lastError: reason };
  }
  const ready = await d.files.firstBytes(state.downloadId);
  if ('pending' in ready) {
    const why = `The arr imported a replacement (${state.downloadId}); not retiring the old file yet: ${ready.pending}`;
    if (now - a.since < REPLACEMENT_WAIT_MS) return later(why);
    // The arr already holds the new file: its quality is not written back, and the old release simply stays.
    const reason = `${a.instance} imported a replacement Spool could not read in ${Math.round(REPLACEMENT_WAIT_MS / 86_400_000)} days (${ready.pending}): the old file stays`;
    d.failed(reason);
    return { awaiting: null, repairNextAt: null, lastError: reason };
  }
  const step = (name: 'replacement_imported' | 'old_retired', detail: string) =>
    d.events?.emit('repair.step', {
      record_id: r.id,
      path: r.path,
      step: name,
      instance: a.instance,
      ok: true,
      detail,
    });
  step('replacement_imported', ready.path);
  await d.files.retire(r.path);
  step('old_retired', r.path);
  d.logger.info('repair: the replacement reads; the old release is retired', { path: r.path, replacement: ready.path });
  if (state.arrPath)
    d.events?.emit('library.changed', {
      path: state.arrPath,
      is_folder: false,
      kind: 'Modified',
      cause: 'repair',
      record_id: r.id,
    });
  return null;
}
