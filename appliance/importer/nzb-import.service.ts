import type { Piscina } from 'piscina';
import type { Logger } from '../logging/logger.js';
import { concatLayouts } from '../layout/index.js';
import {
  cleanFileName,
  groupNzb,
  nameObfuscatedAfterJob,
  NzbParseError,
  type FileEvidence,
  type GroupedNzb,
  type NzbDocument,
  type VirtualFile,
} from '../nzb/index.js';
import type { AddJobFile } from '../vfs/types.js';
import type { VfsService } from '../vfs/vfs.service.js';
import { parseStoredNzb } from '../../workers/parse-nzb.client.js';
import {
  describeMissing,
  probeAvailability,
  type ArticleClient,
  type ProbeFinding,
  type ProbeTarget,
} from '../articles/index.js';
import { asImportError, fetchFirstArticles, isPar2Article, type FirstArticle } from './first-articles.js';
import { filterJobFiles, type FileFilterSettings } from './file-filters.js';
import { layoutPostedFile, type PlannedLayout } from './file-layouts.js';
import { nonRetryableError } from './import-errors.js';
import { formatOf, KeyRing, type SevenZipKdf } from '../archive/index.js';
import { expandArchives } from './archive-expand.js';
import { ImportArticles } from './layout-bytes.js';
import { checkJobFiles, refuseKnownBrokenIds, type BrokenReleaseLookup } from './import-checks.js';
import { readMediaDurations } from './media-durations.js';
import { keepProbeArticles, type FileReads, type ProbeKeeper } from './probe-articles.js';
import type { ImportResult } from './import.runner.js';
import { repairJob, type ImportRepairer } from './import-repair.js';
import { archiveVolumes, par2Layouts, readPar2Descriptions, type KeptPar2Layout } from './par2-names.js';
import type { QueueService } from './queue.service.js';
import { silentEvents, type EventSink, type SpoolEvents } from '../events/index.js';
import type { ImportStage } from '../events/live.wire.js';
import type { QueueRecord } from './queue.types.js';

export interface ImportSettings {
  /** import.segment_sample_percentage (100 = STAT every article). */
  samplePercentage: number;
  /** import.show_archive_volumes: keep RAR/7z volumes in the job beside the files they hold. */
  showArchiveVolumes: boolean;
  /** import.verify_media_headers: each exposed media file's first bytes must be the container its name says. */
  verifyMediaHeaders: boolean;
  /** import.archive_passwords: tried on encrypted archives after the item's and the NZB's own passwords. */
  archivePasswords: readonly string[];
  /** Resolves a queue item's category to its directory under the complete dir. */
  categoryDir(category: string | null): string;
  /** import.allowed_file_extensions and import.filter_sample_files. */
  fileFilters: FileFilterSettings;
}

export interface NzbImporterDeps {
  queue: QueueService;
  vfs: VfsService;
  client: ArticleClient;
  parsePool: Piscina;
  /** Derives 7zAES keys off the main thread (workers/sevenzip-key.client.ts); inline when absent. */
  sevenZipKeys?: SevenZipKdf;
  settings: () => ImportSettings;
  logger: Logger;
  /** Where each stage of an import is announced (`import.progress`). */
  events?: EventSink<SpoolEvents>;
  /**
   * Keeps the release's PAR2 files (names, sizes, article maps) by queue item, out of the tree, so a PAR2 repair
   * later can read the recovery packets (appliance/repair, docs/health.md "PAR2 repair").
   */
  keepPar2?: (queueItemId: number, files: KeptPar2Layout[]) => Promise<void>;
  /** Releases a health verdict found broken, by fingerprint (the repair ledger). */
  brokenRelease?: BrokenReleaseLookup;
  /**
   * Rebuilds articles the probe found missing from the release's PAR2 files (docs/import.md "Repair at import");
   * absent or off: such an import fails.
   */
  repair?: ImportRepairer;
  /** The probe cache: each media file's probe articles are kept as it is imported (importer/probe-articles.ts). */
  probes?: ProbeKeeper;
}

/**
 * One import: NZB -> parsed document -> first article of each file (names, sizes, PAR2 heads) -> grouped and
 * named files -> availability probe -> per-article decoded layouts -> a job in the virtual tree.
 */
export class NzbImporter {
  private readonly events: EventSink<SpoolEvents>;

  constructor(private readonly d: NzbImporterDeps) {
    this.events = d.events ?? silentEvents();
  }

  async run(item: QueueRecord, signal: AbortSignal): Promise<ImportResult> {
    const stage = (name: ImportStage, done = 0, total = 0) =>
      this.events.emit('import.progress', { id: item.id, stage: name, done, total });
    stage('parse');
    const doc = await this.parse(await this.d.queue.nzbCompressed(item.id));
    stage('first_articles', 0, doc.files.length);
    const firsts = await fetchFirstArticles(this.d.client, doc, signal);
    const evidence = firsts.map((f): FileEvidence | undefined =>
      f.missing ? undefined : { yenc: f.facts, head: f.head },
    );
    const par2 = await readPar2Descriptions(this.d.client, doc, firsts, evidence, signal);
    const grouped = groupNzb(doc, evidence, par2);
    const settings = this.d.settings();
    const mains = this.chooseFiles(doc, grouped, firsts, item, settings);
    const par2Files = this.d.keepPar2 ? await par2Layouts(this.d.client, doc, grouped, firsts, signal) : [];

    const broken = this.d.brokenRelease;
    if (broken) for (const f of mains) await refuseKnownBrokenIds(messageIdsOf(doc, f), broken);
    stage('probe', 0, mains.length);
    const findings = await this.probe(doc, mains, firsts, settings.samplePercentage, signal);
    const sampled = settings.samplePercentage < 100;
    // Missing articles PAR2 may rebuild: the job is written, then repaired before the item is completed.
    if (findings.length > 0 && !(this.d.repair?.enabled && par2Files.length > 0 && this.d.keepPar2))
      throw nonRetryableError(describeMissing(findings, sampled));
    const laidOut: AddJobFile[] = [];
    for (const file of mains) {
      stage('layouts', laidOut.length, mains.length);
      laidOut.push(await this.layoutOf(doc, file, firsts, item, signal));
    }
    const articles = new ImportArticles(this.d.client, signal);
    for (const first of firsts) if (!first.missing) articles.seed(first.messageId, first.head);
    const jobFiles = this.exposed(
      item,
      await this.expand(item, doc, mains, laidOut, firsts, articles, settings),
      settings,
    );
    // archive members come from the volumes' import too: a repair finds the release's kept PAR2 files by it
    for (const f of jobFiles) f.queueItemId ??= item.id;
    await checkJobFiles(jobFiles, articles, {
      brokenRelease: this.d.brokenRelease,
      headers: settings.verifyMediaHeaders,
    });
    const reads: FileReads = new Map();
    await readMediaDurations(jobFiles, articles, signal, this.d.logger, reads);
    if (this.d.probes) await keepProbeArticles(jobFiles, reads, articles, this.d.probes, signal, this.d.logger);
    // The probe above passed for these: file info reports them healthy until checked (files under repair: unknown).
    const damaged = new Set(findings.map((f) => f.name));
    for (const f of jobFiles)
      if (!damaged.has(f.name)) f.probe = { at: Date.now(), samplePercentage: settings.samplePercentage };
    signal.throwIfAborted();
    const fileSize = jobFiles.reduce((sum, f) => sum + f.size, 0);
    stage('write', 0, jobFiles.length);
    const written = await this.write(item, settings.categoryDir(item.category), jobFiles);
    if (this.d.keepPar2 && par2Files.length > 0)
      await this.d.keepPar2(item.id, [...par2Files, ...archiveVolumes(laidOut, jobFiles)]);
    if (findings.length > 0) {
      await this.d.queue.markRepairing(item.id);
      this.d.logger.info('repairing the job from PAR2', { id: item.id, files: findings.map((f) => f.name) });
      await repairJob(this.d.repair!, this.d.vfs, {
        ...written,
        findings,
        sampled,
        signal,
        onFile: (done, total) => stage('repair', done, total),
      });
    }
    this.d.logger.info('job written', {
      id: item.id,
      target: written.dir,
      files: jobFiles.length,
      warnings: grouped.warnings,
    });
    return { targetPath: written.dir, fileSize, files: written.files, warnings: grouped.warnings };
  }

  /**
   * The files that become the job: PAR2 files left out (posted under obfuscated names they look like 'other'
   * files by name; their bytes say what they are), files no name source could name called after the job, then
   * import.allowed_file_extensions and import.filter_sample_files applied.
   */
  private chooseFiles(
    doc: NzbDocument,
    grouped: GroupedNzb,
    firsts: readonly FirstArticle[],
    item: QueueRecord,
    settings: ImportSettings,
  ): VirtualFile[] {
    const isPar2 = (f: VirtualFile) => f.parts.every((p) => isPar2Article(firsts[p]!));
    const files = grouped.files.filter((f) => !isPar2(f));
    const sizeOf = (f: VirtualFile) => f.parts.reduce((sum, p) => sum + doc.files[p]!.segments.totalBytes(), 0);
    nameObfuscatedAfterJob(files, {
      jobName: safeSegment(item.name, ''),
      headOf: (f) => {
        const a = firsts[f.parts[0]!]!;
        return a.missing ? undefined : a.head;
      },
      sizeOf,
    });
    // An NZB of only small companions (.nfo, images) still imports them rather than failing as empty.
    const candidates = files.length > 0 ? files : grouped.extras;
    if (candidates.length === 0)
      throw nonRetryableError('The NZB holds only PAR2 repair files; there is nothing to import');
    const isVolume = (f: VirtualFile) => {
      const a = firsts[f.parts[0]!]!;
      return f.kind === 'archive' || (!a.missing && formatOf(a.head) !== null);
    };
    return this.exposed(item, candidates, settings, sizeOf, isVolume);
  }

  /** import.allowed_file_extensions and import.filter_sample_files; nothing left is a permanent failure. */
  private exposed<T extends { name: string; size?: number }>(
    item: QueueRecord,
    files: readonly T[],
    settings: ImportSettings,
    sizeOf: (file: T) => number = (f) => f.size ?? 0,
    isVolume?: (file: T) => boolean,
  ): T[] {
    const { kept, dropped } = filterJobFiles(files, settings.fileFilters, sizeOf, isVolume);
    if (dropped.length > 0) this.d.logger.info('files left out of the job', { id: item.id, dropped });
    if (kept.length === 0) {
      const names = dropped.map((d) => d.name).join(', ');
      throw nonRetryableError(
        `No file of the release may be exposed (import.allowed_file_extensions, import.filter_sample_files): ${names}`,
      );
    }
    return kept;
  }

  /** Archive volumes give way to the files they store (docs/archives.md); only their headers are read. */
  private async expand(
    item: QueueRecord,
    doc: NzbDocument,
    mains: readonly VirtualFile[],
    files: AddJobFile[],
    firsts: readonly FirstArticle[],
    articles: ImportArticles,
    settings: ImportSettings,
  ): Promise<AddJobFile[]> {
    const candidates = mains.map((file, i) => {
      const first = firsts[file.parts[0]!]!;
      return { file: files[i]!, head: first.missing ? undefined : first.head };
    });
    // passwords in the order most likely right: given with the item, then the NZB's own, then the configured list
    const given = [item.password, ...(doc.meta.password ?? []), ...settings.archivePasswords];
    const passwords = [...new Set(given.filter((p): p is string => !!p))];
    const expanded = await expandArchives(candidates, {
      articles,
      keys: new KeyRing(passwords, this.d.sevenZipKeys),
      showVolumes: settings.showArchiveVolumes,
    });
    if (articles.fetched > 0)
      this.d.logger.debug('archive headers read', { articles: articles.fetched, files: doc.files.length });
    return expanded;
  }

  /** Parses the stored (compressed) NZB: decompressed while parsing, in the worker when big. */
  private async parse(compressed: Buffer): Promise<NzbDocument> {
    try {
      const doc = await parseStoredNzb(this.d.parsePool, compressed);
      if (doc.files.length === 0) throw nonRetryableError('The NZB lists no files with articles');
      return doc;
    } catch (err) {
      if (err instanceof NzbParseError) throw nonRetryableError(`The NZB could not be read: ${err.message}`);
      throw err;
    }
  }

  private async probe(
    doc: NzbDocument,
    mains: readonly VirtualFile[],
    firsts: readonly FirstArticle[],
    percentage: number,
    signal: AbortSignal,
  ): Promise<ProbeFinding[]> {
    const targets: ProbeTarget[] = mains.map((file) => {
      // the file's articles are its parts' segments end to end; ids are read only for the sampled ones
      const parts = file.parts.map((p) => doc.files[p]!.segments);
      const starts: number[] = [];
      const known = new Set<number>();
      let count = 0;
      file.parts.forEach((part, k) => {
        if (!firsts[part]!.missing) known.add(count);
        starts.push(count);
        count += parts[k]!.length;
      });
      const messageId = (index: number) => {
        let k = starts.length - 1;
        while (starts[k]! > index) k--;
        return parts[k]!.messageId(index - starts[k]!);
      };
      return { name: file.name, count, messageId, known };
    });
    const findings = await probeAvailability(this.d.client, targets, { percentage, lane: 'import', signal }).catch(
      (err: unknown) => {
        throw asImportError(err);
      },
    );
    return findings;
  }

  private async layoutOf(
    doc: NzbDocument,
    file: VirtualFile,
    firsts: readonly FirstArticle[],
    item: QueueRecord,
    signal: AbortSignal,
  ): Promise<AddJobFile> {
    const pieces: PlannedLayout[] = [];
    for (const part of file.parts) {
      const first = firsts[part]!;
      if (first.missing)
        throw nonRetryableError(`${file.name}: its first article <${first.messageId}> is missing on every provider`);
      const name = file.parts.length > 1 ? `${file.name} (piece ${pieces.length + 1})` : file.name;
      pieces.push(await layoutPostedFile(this.d.client, doc.files[part]!, name, first.facts, signal));
    }
    const size = pieces.reduce((sum, p) => sum + p.size, 0);
    if (file.par2 && file.par2.length !== size) {
      throw nonRetryableError(`${file.name}: PAR2 says ${file.par2.length} bytes but the articles hold ${size}`);
    }
    return {
      name: file.name,
      size,
      // built when the job is written: a million-article release never holds every file's layout at once
      layout: () => concatLayouts(pieces.map((p) => p.build())),
      sourceNzbPath: item.nzbPath,
      queueItemId: item.id,
      passwordProtected: (doc.meta.password?.length ?? 0) > 0,
    };
  }

  /**
   * Writes the job. The directory is chosen and reserved on the queue item in one transaction first (see
   * QueueService.reserveJobDir): two imports of the same name never share a directory, and a re-run after a
   * crash finds its own reservation and replaces its half-known job.
   */
  private async write(
    item: QueueRecord,
    categoryDir: string,
    files: AddJobFile[],
  ): Promise<{ dir: string; files: string[] }> {
    const jobName = safeSegment(item.name, 'job');
    const vfs = this.d.vfs;
    const base = `${vfs.completeDir === '/' ? '' : vfs.completeDir}/${categoryDir}/`;
    const nameFor = (n: number) => (n === 1 ? jobName : `${jobName} (${n})`);
    const targetPath = await this.d.queue.reserveJobDir(
      item.id,
      (n) => base + nameFor(n),
      (path) => vfs.stat(path) !== undefined,
    );
    const chosen = targetPath.slice(base.length);
    return vfs.addJob({ category: categoryDir, jobName: chosen, files, replace: true });
  }
}

/** A name usable as one path segment of the virtual tree. */
export function safeSegment(raw: string, fallback: string): string {
  const name = cleanFileName(raw).replace(/\//g, '_');
  const trimmed =
    Buffer.byteLength(name) > 200
      ? Buffer.from(name)
          .subarray(0, 200)
          .toString('utf8')
          .replace(/\uFFFD+$/, '')
      : name;
  return trimmed === '' || trimmed === '.' || trimmed === '..' ? fallback : trimmed;
}

/** Every message-id of a posted file's parts, as the NZB lists them. */
function* messageIdsOf(doc: NzbDocument, file: VirtualFile): Generator<string> {
  for (const p of file.parts) {
    const segments = doc.files[p]!.segments;
    for (let i = 0; i < segments.length; i++) yield segments.messageId(i);
  }
}
