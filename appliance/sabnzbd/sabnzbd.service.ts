import { splitJobPassword } from './job-password.js';
import type { ConfigService } from '../config/index.js';
import { AppError } from '../errors/app-error.js';
import { categoryDir, type ImporterDomain, type QueueRecord } from '../importer/index.js';
import { parseCategory, parsePriority } from '../importer/request-parsing.js';
import type { RecentWarnings } from '../logging/recent-warnings.js';
import type { VfsService } from '../vfs/vfs.service.js';
import type { DownloadTotals, ServerStats } from './download-totals.js';
import { serverNames } from './server-names.js';
import type { FallbackClient, RemoteJob } from './fallback.client.js';
import type { NzoIds } from './nzo-ids.js';
import { epochSeconds, megabytes, timeLeft, toUnits } from './sabnzbd.format.js';
import { categoryOf, historySlot, queueSlot } from './sabnzbd.slots.js';
import type { SabCategory, SabConfig, SabHistory, SabParams, SabQueue } from './sabnzbd.types.js';

/** The SABnzbd version Spool reports: the arrs need x.y.z >= 2.0 (`develop` would give a warning). */
export const SAB_VERSION = '4.5.1';

export interface SabnzbdDeps {
  importer: ImporterDomain;
  config: ConfigService;
  vfs: VfsService;
  nzo: NzoIds;
  fallback: FallbackClient;
  /** Bytes and articles per provider and day (server_stats, the history's sizes). */
  totals: DownloadTotals;
  /** The last warn/error log events (mode=warnings, the queue's have_warnings). */
  warnings: RecentWarnings;
}

/** How long a forwarded job's state read from the fallback SABnzbd is reused (the arrs poll every minute). */
const REMOTE_TTL_MS = 5000;

export interface NzbInput {
  bytes: Buffer;
  filename: string;
}

/**
 * The SABnzbd API over Spool's import queue: pending and importing items are SABnzbd's queue, completed and
 * failed ones its history (docs/sabnzbd.md has the mapping). Every method returns the JSON body SABnzbd would.
 */
export class SabnzbdService {
  private readonly remote = new Map<string, { at: number; job: RemoteJob | null | 'unreachable' }>();

  constructor(private readonly d: SabnzbdDeps) {}

  version() {
    return { version: SAB_VERSION };
  }

  getConfig(): { config: SabConfig } {
    return {
      config: {
        misc: {
          complete_dir: this.d.importer.output.completeRoot(),
          download_dir: this.d.importer.output.completeRoot(),
          pre_check: 0,
          // "Keep all": the arrs warn about clients that remove completed downloads on their own.
          history_retention: '',
          history_retention_option: 'all',
          history_retention_number: 0,
          enable_tv_sorting: 0,
          enable_movie_sorting: 0,
          enable_date_sorting: 0,
          api_key: '',
          nzb_key: '',
          version: SAB_VERSION,
        },
        categories: this.categories(),
        sorters: [],
        servers: [],
      },
    };
  }

  fullstatus() {
    const dir = this.d.importer.output.completeRoot();
    return {
      status: {
        completedir: dir,
        downloaddir: dir,
        version: SAB_VERSION,
        paused: this.d.importer.runner.paused,
        servers: [],
      },
    };
  }

  getCats() {
    return { categories: this.categories().map((c) => c.name) };
  }

  /** `*` first, then the configured ones by order; `dir` is the folder under complete_dir Spool writes to. */
  categories(): SabCategory[] {
    const cats = this.d.config.get().sabnzbd.categories;
    const sorted = [...cats].filter((c) => c.name !== '*').sort((a, b) => a.order - b.order);
    return [
      { name: '*', order: 0, pp: '3', script: 'None', dir: '', newzbin: '', priority: 0 },
      ...sorted.map((c) => ({
        name: c.name,
        order: c.order,
        pp: '',
        script: 'Default',
        dir: categoryDir(cats, c.name),
        newzbin: '',
        priority: c.priority,
      })),
    ];
  }

  /** Throws QUEUE_FULL while import.max_queued_items items are unfinished (answered as `{status: false, error}`). */
  admit(): Promise<void> {
    return this.d.importer.queue.admission.check();
  }

  /**
   * addfile / addurl: one queue item; `cat`, `priority`, `nzbname` and `password` from the query or the form (an
   * archive password may also come as `Name{{password}}` in nzbname or the file name: job-password.ts).
   */
  async add(nzb: NzbInput, p: SabParams): Promise<{ status: true; nzo_ids: string[] }> {
    const nzbname = p.get('nzbname')?.trim();
    const job = splitJobPassword(nzbname ? `${nzbname}.nzb` : nzb.filename, p.get('password') ?? undefined);
    const item = await this.d.importer.queue.enqueue({
      nzb: nzb.bytes,
      nzbPath: job.name,
      ...(job.password !== undefined ? { password: job.password } : {}),
      category: parseCategory(p.get('cat') ?? p.get('category')),
      priority: this.priorityOf(p),
    });
    if (p.get('priority')?.trim() === '-2') await this.d.importer.queue.setPaused(item.id, true);
    return { status: true, nzo_ids: [this.d.nzo.of(item.id)] };
  }

  async queue(p: SabParams): Promise<{ queue: SabQueue }> {
    const wanted = this.filterOf(p);
    const all = (await this.d.importer.queue.active()).filter(wanted);
    const { start, limit } = paging(p);
    const page = limit === 0 ? all.slice(start) : all.slice(start, start + limit);
    const bytes = all.reduce((sum, r) => sum + Math.max(0, r.fileSize), 0);
    const paused = this.d.importer.runner.paused;
    return {
      queue: {
        status: paused ? 'Paused' : all.some((r) => r.status === 'processing') ? 'Downloading' : 'Queued',
        paused,
        paused_all: paused,
        pause_int: '0',
        noofslots_total: all.length,
        noofslots: all.length,
        start,
        limit,
        finish: start + page.length,
        timeleft: timeLeft(0),
        speed: '0 ',
        kbpersec: '0.00',
        mb: megabytes(bytes),
        mbleft: megabytes(bytes),
        size: toUnits(bytes, 'B'),
        sizeleft: toUnits(bytes, 'B'),
        speedlimit: '100',
        speedlimit_abs: '',
        have_warnings: String(this.d.warnings.count),
        diskspace1: '0.00',
        diskspace2: '0.00',
        diskspacetotal1: '0.00',
        diskspacetotal2: '0.00',
        diskspace1_norm: '0 ',
        diskspace2_norm: '0 ',
        version: SAB_VERSION,
        finishaction: null,
        quota: '0 ',
        have_quota: false,
        left_quota: '0 ',
        cache_art: '0',
        cache_size: '0 B',
        slots: page.map((r, i) => queueSlot(r, start + i, this.d.nzo.of(r.id))),
      },
    };
  }

  async history(p: SabParams): Promise<{ history: SabHistory }> {
    const { start, limit } = paging(p);
    const { items, total } = await this.historyItems(p, start, limit);
    const slots = await Promise.all(
      items.map(async (r) =>
        historySlot(r, {
          nzoId: this.d.nzo.of(r.id),
          readable: r.status === 'completed' && !r.forwarded && (await this.d.importer.output.readable(r.storagePath)),
          remote: r.forwarded ? await this.remoteJob(r.forwarded.nzoId) : undefined,
        }),
      ),
    );
    // SABnzbd lists jobs still in post-processing above the finished ones.
    slots.sort((a, b) => Number(postProcessing(b.status)) - Number(postProcessing(a.status)));
    const sums = this.d.totals.sums();
    return {
      history: {
        noofslots: total,
        ppslots: slots.filter((s) => postProcessing(s.status)).length,
        last_history_update: items[0] ? epochSeconds(items[0].updatedAt) : 0,
        version: SAB_VERSION,
        total_size: toUnits(sums.total),
        month_size: toUnits(sums.month),
        week_size: toUnits(sums.week),
        day_size: toUnits(sums.day),
        slots,
      },
    };
  }

  /**
   * mode=server_stats: bytes downloaded in all, this month, week (from Monday) and day, over every provider ever
   * used, and per configured provider keyed by its host as SABnzbd keys servers by name (docs/sabnzbd.md).
   */
  serverStats(): { total: number; month: number; week: number; day: number; servers: Record<string, ServerStats> } {
    const sums = this.d.totals.sums();
    const per = this.d.totals.byProvider();
    const servers: Record<string, ServerStats> = {};
    for (const [name, id] of serverNames(this.d.config.get().providers)) {
      servers[name] = per.get(id) ?? {
        total: 0,
        month: 0,
        week: 0,
        day: 0,
        daily: {},
        articles_tried: {},
        articles_success: {},
      };
    }
    return { ...sums, servers };
  }

  /** mode=warnings (`name=show` too) and `name=clear`, as SABnzbd answers them. */
  warnings(name: string | undefined): unknown {
    if (name === 'clear') {
      this.d.warnings.clear();
      return { status: true };
    }
    if (name && name !== 'show') return { status: false, error: 'not implemented' };
    return { warnings: this.d.warnings.content() };
  }

  /** queue&name=delete: removes waiting items; one being imported cannot be (it would write a job nobody owns). */
  async queueDelete(p: SabParams): Promise<{ status: boolean; nzo_ids: string[]; error?: string }> {
    const queue = this.d.importer.queue;
    const targets = await this.targets(p, () => queue.active());
    const removed: string[] = [];
    const busy: string[] = [];
    for (const r of targets) {
      if (r.status === 'completed' || r.status === 'failed') continue;
      try {
        await queue.remove(r.id);
        removed.push(this.d.nzo.of(r.id));
      } catch {
        busy.push(this.d.nzo.of(r.id));
      }
    }
    if (busy.length > 0)
      return { status: false, error: `Being imported, delete again in a moment: ${busy.join(', ')}`, nzo_ids: removed };
    return { status: true, nzo_ids: removed };
  }

  /** queue&name=pause / resume of single items (`value` = nzo_ids). */
  async queuePause(p: SabParams, paused: boolean): Promise<{ status: true; nzo_ids: string[] }> {
    const done: string[] = [];
    for (const r of await this.targets(p, () => this.d.importer.queue.active())) {
      if (await this.d.importer.queue.setPaused(r.id, paused)) done.push(this.d.nzo.of(r.id));
    }
    return { status: true, nzo_ids: done };
  }

  /**
   * history&name=delete. With `del_files=1` the job's folder (symlinks or .strm files) goes too, never the content
   * on the mount; the virtual files go only with the Spool-specific `del_completed_files=1`.
   */
  async historyDelete(p: SabParams): Promise<{ status: true }> {
    const value = (p.get('value') ?? '').trim().toLowerCase();
    const queue = this.d.importer.queue;
    const everything = async () => (await queue.history({ offset: 0, limit: 0 })).items;
    const targets =
      value === 'completed' || value === 'failed'
        ? (await everything()).filter((r) => r.status === value)
        : await this.targets(p, everything);
    const delFiles = p.get('del_files') === '1';
    const delContent = p.get('del_completed_files') === '1';
    for (const r of targets) {
      if (r.status !== 'completed' && r.status !== 'failed') continue;
      await queue.remove(r.id);
      if (delFiles) await this.d.importer.output.removeFolder(r.storagePath);
      if (delContent && r.targetPath && this.d.vfs.stat(r.targetPath)) await this.d.vfs.remove(r.targetPath);
    }
    return { status: true };
  }

  pause(paused: boolean): { status: true } {
    if (paused) this.d.importer.runner.pause();
    else this.d.importer.runner.resume();
    return { status: true };
  }

  /** A forwarded job's state in the fallback SABnzbd, cached briefly; an outage reads as 'unreachable'. */
  private async remoteJob(nzoId: string): Promise<RemoteJob | null | 'unreachable'> {
    const hit = this.remote.get(nzoId);
    if (hit && Date.now() - hit.at < REMOTE_TTL_MS) return hit.job;
    const job = await this.d.fallback.job(nzoId).then(
      (j) => j ?? null,
      () => 'unreachable' as const,
    );
    if (this.remote.size > 10_000) this.remote.clear();
    this.remote.set(nzoId, { at: Date.now(), job });
    return job;
  }

  private async historyItems(
    p: SabParams,
    start: number,
    limit: number,
  ): Promise<{ items: QueueRecord[]; total: number }> {
    const queue = this.d.importer.queue;
    const cats = categoryList(p);
    const search = p.get('search')?.trim().toLowerCase();
    const ids = listOf(p.get('nzo_ids'));
    if (ids.length === 0 && !search && cats.length <= 1) {
      return queue.history({ category: cats[0], offset: start, limit });
    }
    const wanted = this.filterOf(p);
    const matches: QueueRecord[] = [];
    for (const r of (await queue.history({ offset: 0, limit: 0 })).items) if (wanted(r)) matches.push(r);
    return { items: limit === 0 ? matches.slice(start) : matches.slice(start, start + limit), total: matches.length };
  }

  /** category/cat (comma list, `*` = none, exact), search (in the name), nzo_ids (comma list). */
  private filterOf(p: SabParams): (r: QueueRecord) => boolean {
    const cats = categoryList(p);
    const search = p.get('search')?.trim().toLowerCase();
    const ids = new Set(listOf(p.get('nzo_ids')).map((id) => this.d.nzo.parse(id)));
    return (r) =>
      (cats.length === 0 || cats.includes(categoryOf(r))) &&
      (!search || r.name.toLowerCase().includes(search)) &&
      (ids.size === 0 || ids.has(r.id));
  }

  /** `value`: nzo_ids (comma list) or `all`. */
  private async targets(p: SabParams, all: () => Promise<QueueRecord[]>): Promise<QueueRecord[]> {
    const value = (p.get('value') ?? '').trim();
    if (value === '') throw new AppError('INVALID_PARAMETER', 'expects one parameter');
    if (value.toLowerCase() === 'all') return (await all()).filter(this.filterOf(p));
    const out: QueueRecord[] = [];
    for (const nzo of listOf(value)) {
      const id = this.d.nzo.parse(nzo);
      const r = id === undefined ? undefined : await this.d.importer.queue.get(id);
      if (r) out.push(r);
    }
    return out;
  }

  private priorityOf(p: SabParams) {
    const raw = p.get('priority');
    if (raw === undefined || raw.trim() === '' || raw.trim() === '-100') {
      // Default: the category's own priority (SABnzbd does the same).
      const cat = p.get('cat') ?? p.get('category');
      const match = this.d.config.get().sabnzbd.categories.find((c) => c.name === cat?.trim());
      return parsePriority(String(match?.priority ?? 0));
    }
    return parsePriority(raw);
  }
}

function listOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function categoryList(p: SabParams): string[] {
  return listOf(p.get('category') ?? p.get('cat'));
}

/** start and limit (0 or absent = all), never negative, whole numbers only. */
function paging(p: SabParams): { start: number; limit: number } {
  const num = (name: string) => {
    const raw = p.get(name)?.trim();
    if (!raw) return 0;
    if (!/^\d{1,9}$/.test(raw)) throw new AppError('INVALID_PARAMETER', 'expects integer value');
    return Number(raw);
  };
  return { start: num('start'), limit: num('limit') };
}

/** History slots still in post-processing (the arrs wait on them): a PAR2 repair, or storage not yet readable. */
function postProcessing(status: string): boolean {
  return status === 'Verifying' || status === 'Repairing';
}
