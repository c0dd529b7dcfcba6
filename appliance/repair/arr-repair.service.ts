import type { ArrInstance, SpoolConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { ArrClient } from '../arrs/arr.client.js';
import { ArrError } from '../arrs/arr.errors.js';
import type { ArrType } from '../arrs/arrs.wire.js';
import { findOwner, type FileOwner } from './arr-file-owner.js';
import {
  alreadyAsked,
  askForUpgrade,
  replacementState,
  restoreQuality,
  type AwaitedReplacement,
  type ReplacementState,
} from './arr-replacement.js';
import { fileTarget, localFiles, type FileView } from './arr-file-target.js';

export interface RepairInput {
  /** The broken file: its virtual path ('/complete/movies/Job/film.mkv') or that path under mount_path. */
  path: string;
  /** The nzo_id Spool's SABnzbd API gave the arr for the download, when known. */
  downloadId?: string;
  /** Size in bytes, when known: only used to confirm a match by release name. */
  size?: number;
}

export type ArrRepairOutcome =
  | {
      kind: 'triggered';
      instance: string;
      arrType: ArrType;
      /** Radarr movie id or Sonarr series id. */
      itemId: number;
      /** The moviefile/episodefile record deleted. */
      fileId: number;
      /** The grab was marked failed, so the arr will not pick the same release again. */
      blocklisted: boolean;
      /** A search for a replacement was started: by Spool, or by the arr itself after the blocklist. */
      searched: boolean;
      /**
       * `replace`: the file record was kept (its revision lowered) and the arr replaces it at its upgrade import, so
       * the title never leaves the library; `delete`: the record was deleted first (the arr's grab is unknown, or
       * the arr cannot edit file records), as repairs always did. docs/arrs.md "Continuity".
       */
      route: 'replace' | 'delete';
      /** Why the delete route was taken; null for `replace`. */
      note: string | null;
      /** `replace`: what to watch until the replacement is imported. */
      awaiting?: AwaitedReplacement;
    }
  /** No enabled instance manages the file (the health route answers NOT_FOUND). */
  | { kind: 'not_found' }
  /** An arr could not be asked or refused for now (unreachable, timeout, 5xx, 409 root folder missing). */
  | { kind: 'retryable'; reason: string }
  | { kind: 'failed'; reason: string };

export interface ArrRepairDeps {
  config: { get(): SpoolConfig };
  logger: Logger;
  /** Tests and other wiring may swap how clients are made or symlinks are read. */
  clientFor?: (instance: ArrInstance) => ArrClient;
  files?: FileView;
}

/**
 * Asks the Radarr/Sonarr instance that owns a broken file to replace it (docs/arrs.md, "Repair"): find the file
 * record, delete it (the arr removes its symlink, never Spool's content), mark the grab failed when known
 * (blocklist), and search again unless the arr's own "Redownload Failed" already does.
 */
export class ArrRepairService {
  private readonly inFlight = new Map<string, Promise<ArrRepairOutcome>>();
  private readonly clientFor: (instance: ArrInstance) => ArrClient;
  private readonly files: FileView;

  constructor(private readonly deps: ArrRepairDeps) {
    this.clientFor =
      deps.clientFor ?? ((i) => new ArrClient({ type: i.type, url: i.url, apiKey: i.api_key, name: i.name }));
    this.files = deps.files ?? localFiles;
  }

  /** Repairs of the same file at once share one run: the arr must not see two deletes and two searches. */
  repairFile(input: RepairInput): Promise<ArrRepairOutcome> {
    // The same file may come as a virtual path or under mount_path: one key for both.
    const key = fileTarget(input.path, this.deps.config.get().mount_path, '').virtualPath;
    const running = this.inFlight.get(key);
    if (running) return running;
    const run = this.repair(input).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  private async repair(input: RepairInput): Promise<ArrRepairOutcome> {
    const config = this.deps.config.get();
    if (!config.arrs.enabled) return { kind: 'not_found' };
    const instances = [...config.arrs.radarr_instances, ...config.arrs.sonarr_instances].filter((i) => i.enabled);
    const retry: string[] = [];
    const failed: string[] = [];
    for (const instance of instances) {
      const client = this.clientFor(instance);
      const target = fileTarget(input.path, config.mount_path, instance.root_folder);
      let owner: FileOwner | undefined;
      try {
        owner = await findOwner(client, { ...input, target, files: this.files });
      } catch (err) {
        (err instanceof ArrError && err.retryable ? retry : failed).push(reasonOf(err));
        continue;
      }
      if (owner) return this.replace(client, instance, owner, input.downloadId);
    }
    // Not found where we could look; an instance we could not ask may still own it.
    if (retry.length > 0) return { kind: 'retryable', reason: retry.join('; ') };
    if (failed.length > 0) return { kind: 'failed', reason: failed.join('; ') };
    return { kind: 'not_found' };
  }

  /** Where a kept file's replacement stands (the repair loop asks while it waits). */
  async replacementOf(a: AwaitedReplacement): Promise<ReplacementState> {
    return replacementState(this.clientOf(a.instance), a);
  }

  /** The repair is given up: the kept record gets its quality back. */
  async giveUp(a: AwaitedReplacement): Promise<void> {
    await restoreQuality(this.clientOf(a.instance), a);
  }

  private clientOf(name: string): ArrClient {
    const arrs = this.deps.config.get().arrs;
    const instance = [...arrs.radarr_instances, ...arrs.sonarr_instances].find((i) => i.name === name);
    if (!instance) throw new ArrError('not_found', `arr instance ${name} is no longer configured`, false);
    return this.clientFor(instance);
  }

  private async replace(
    client: ArrClient,
    instance: ArrInstance,
    owner: FileOwner,
    downloadId: string | undefined,
  ): Promise<ArrRepairOutcome> {
    if (owner.grabId === undefined || !downloadId)
      return this.deleteAndSearch(client, instance, owner, 'the arr has no grab of the download that brought the file');
    const grabId = owner.grabId;
    const ctx = { instance: instance.name, type: instance.type, itemId: owner.itemId, fileId: owner.fileId };
    let quality: AwaitedReplacement['quality'] = null;
    try {
      // a repair a restart cut short after asking: the grab is failed already, asking again would grab twice
      if (!(await alreadyAsked(client, downloadId))) quality = await askForUpgrade(client, { ...owner, grabId });
    } catch (err) {
      if (err instanceof ArrError && !err.retryable && err.kind !== 'unauthorized')
        return this.deleteAndSearch(
          client,
          instance,
          owner,
          `the arr cannot keep the file while replacing it: ${reasonOf(err)}`,
        );
      return { kind: err instanceof ArrError && err.retryable ? 'retryable' : 'failed', reason: reasonOf(err) };
    }
    const searched = await this.searchUnlessArrDoes(client, owner, true);
    this.deps.logger.info('arr repair: the file stays while the arr replaces it', { ...ctx, searched });
    return {
      kind: 'triggered',
      instance: instance.name,
      arrType: instance.type,
      ...pick(owner),
      blocklisted: true,
      searched,
      route: 'replace',
      note: null,
      awaiting: {
        instance: instance.name,
        arrType: instance.type,
        itemId: owner.itemId,
        fileId: owner.fileId,
        episodeIds: owner.episodeIds,
        quality,
        downloadId,
        grabId,
        since: Date.now(),
      },
    };
  }

  /** Search unless the blocklist already queued the arr's own search ("Redownload Failed"). */
  private async searchUnlessArrDoes(client: ArrClient, owner: FileOwner, blocklisted: boolean): Promise<boolean> {
    if (blocklisted && (await this.redownloadsByItself(client))) return true;
    if (client.type === 'sonarr' && owner.episodeIds.length === 0) return false;
    try {
      if (client.type === 'radarr') await client.searchMovies([owner.itemId]);
      else await client.searchEpisodes(owner.episodeIds);
      return true;
    } catch (err) {
      this.deps.logger.warn('arr repair: starting the search did not work', {
        itemId: owner.itemId,
        error: reasonOf(err),
      });
      return false;
    }
  }

  /** Today's route where the file cannot be kept: delete the record, blocklist the grab when known, search. */
  private async deleteAndSearch(
    client: ArrClient,
    instance: ArrInstance,
    owner: FileOwner,
    note: string,
  ): Promise<ArrRepairOutcome> {
    const log = this.deps.logger;
    const ctx = { instance: instance.name, type: instance.type, itemId: owner.itemId, fileId: owner.fileId };
    // The delete comes first: the arr's 409 failsafe (root folder missing) must stop the repair before a blocklist.
    try {
      if (client.type === 'radarr') await client.deleteMovieFile(owner.fileId);
      else await client.deleteEpisodeFile(owner.fileId);
    } catch (err) {
      if (err instanceof ArrError && err.kind === 'not_found') {
        return { kind: 'failed', reason: `${reasonOf(err)}: the arr no longer has this file record` };
      }
      return { kind: err instanceof ArrError && err.retryable ? 'retryable' : 'failed', reason: reasonOf(err) };
    }
    // From here the record is gone: a later attempt could not find it again, so failures only lower the flags.
    let blocklisted = false;
    if (owner.grabId !== undefined) {
      try {
        await client.markFailed(owner.grabId);
        blocklisted = true;
      } catch (err) {
        log.warn('arr repair: marking the grab failed did not work', { ...ctx, error: reasonOf(err) });
      }
    }
    const searched = await this.searchUnlessArrDoes(client, owner, blocklisted);
    log.info('arr repair triggered', { ...ctx, blocklisted, searched, how: owner.how });
    return {
      kind: 'triggered',
      instance: instance.name,
      arrType: instance.type,
      ...pick(owner),
      blocklisted,
      searched,
      route: 'delete',
      note,
    };
  }

  /** With "Redownload Failed" on, the blocklist already queued a search; a second one could grab twice. */
  private async redownloadsByItself(client: ArrClient): Promise<boolean> {
    try {
      return (await client.downloadClientConfig()).autoRedownloadFailed === true;
    } catch {
      return false;
    }
  }
}

const pick = (o: FileOwner) => ({ itemId: o.itemId, fileId: o.fileId });
const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
