/**
 * A download-client side of Radarr/Sonarr's SABnzbd integration, written from docs/sabnzbd.md (what the arrs send
 * and how strictly they parse). It sends the same URLs, headers and multipart part as the arr, and reads replies
 * with the arr's strictness: an unknown status string, a `timeleft` that is not H:M:S or D:H:M:S, a fractional
 * number where an int is expected, or a missing `slots` fails the whole poll, as it does in the arr.
 *
 *   const arr = new ArrSabClient({ baseUrl, urlBase: '/sabnzbd', apiKey, category: 'movies', app: 'Radarr' });
 *   await arr.test();                       // throws ArrTestFailure with the arr's message
 *   const id = await arr.addFile('Movie.2024.1080p', nzbXml);
 *   const items = await arr.getItems();     // one queue + one history poll, mapped like the arr
 *   await arr.removeItem(id, true);
 */
import { randomBytes } from 'node:crypto';

/** The arr's DownloadItemStatus values our tests see. */
export type ArrItemStatus = 'Queued' | 'Paused' | 'Downloading' | 'Completed' | 'Failed' | 'Warning';

export interface ArrItem {
  downloadId: string;
  title: string;
  category: string;
  status: ArrItemStatus;
  message?: string;
  totalSize: number;
  remainingSize: number;
  remainingTime: number | null;
  outputPath?: string;
}

export class ArrTestFailure extends Error {}
export class DownloadClientException extends Error {}

/** Sonarr/Radarr's enum, matched case-insensitively; anything else throws like Newtonsoft's StringEnumConverter. */
const STATUSES = [
  'Grabbing',
  'Queued',
  'Paused',
  'Checking',
  'Downloading',
  'QuickCheck',
  'Verifying',
  'Repairing',
  'Fetching',
  'Extracting',
  'Moving',
  'Running',
  'Completed',
  'Failed',
  'Deleted',
  'Propagating',
];

export interface ArrSabOptions {
  baseUrl: string;
  /** The arr's URL Base field, e.g. '/sabnzbd'. */
  urlBase: string;
  apiKey?: string;
  username?: string;
  password?: string;
  category: string;
  app?: 'Radarr' | 'Sonarr';
  /** DownloadClientHistoryLimit (hidden setting), default 60. */
  historyLimit?: number;
}

type Json = Record<string, unknown>;

export class ArrSabClient {
  /** Every URL this client requested, in order (to check the shape and the polling cadence). */
  readonly requests: string[] = [];

  constructor(private readonly o: ArrSabOptions) {}

  // ---- SabnzbdProxy ----

  private url(mode: string, params: [string, string][] = []): string {
    const q = new URLSearchParams([['mode', mode], ...params]);
    if (this.o.apiKey) q.append('apikey', this.o.apiKey);
    else {
      q.append('ma_username', this.o.username ?? '');
      q.append('ma_password', this.o.password ?? '');
    }
    q.append('output', 'json');
    return `${this.o.baseUrl}${this.o.urlBase}/api?${q.toString()}`;
  }

  private async process(url: string, init: RequestInit = {}): Promise<string> {
    this.requests.push(url);
    const res = await fetch(url, {
      ...init,
      headers: {
        Accept: 'application/json',
        'User-Agent': `${this.o.app ?? 'Radarr'}/5.26.2.10099 (debian 12)`,
        ...(init.headers as Record<string, string>),
      },
    });
    const text = await res.text();
    if (res.status >= 400) {
      throw new DownloadClientException(
        `Unable to connect to SABnzbd, HTTP request failed: [${res.status}:${res.statusText}] [${init.method ?? 'GET'}] at [${url}]`,
      );
    }
    checkForError(text);
    return text;
  }

  private async getJson(mode: string, params: [string, string][] = []): Promise<Json> {
    return JSON.parse(await this.process(this.url(mode, params))) as Json;
  }

  async getVersion(): Promise<string> {
    const body = await this.getJson('version');
    return str(body.version, 'version');
  }

  async getConfig(): Promise<Json> {
    const body = await this.getJson('get_config');
    if (!isObj(body.config)) throw new Error('get_config: config missing');
    return body.config;
  }

  /** POST mode=addfile&cat=&priority= with the NZB as the one multipart part `name`, like HttpRequestBuilder. */
  async addFile(title: string, nzb: string | Buffer, priority = -100): Promise<string> {
    const boundary = `-----------------------------${randomBytes(8).toString('hex')}`;
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="name"; filename="${title}.nzb"\r\n` +
      'Content-Type: application/x-nzb\r\n\r\n';
    const body = Buffer.concat([Buffer.from(head), Buffer.from(nzb), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const url = this.url('addfile', [
      ['cat', this.o.category],
      ['priority', String(priority)],
    ]);
    const text = await this.process(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    let parsed: Json;
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      throw new Error('SABnzbd rejected the NZB for an unknown reason');
    }
    const ids = parsed.nzo_ids;
    if (!Array.isArray(ids) || ids.length === 0 || typeof ids[0] !== 'string')
      throw new Error('SABnzbd rejected the NZB for an unknown reason');
    return ids[0];
  }

  async getQueue(): Promise<Json> {
    const params: [string, string][] = [
      ['start', '0'],
      ['limit', '0'],
    ];
    if (this.o.category) params.push(['category', this.o.category]);
    const body = await this.getJson('queue', params);
    if (!isObj(body.queue) || !Array.isArray(body.queue.slots)) throw new Error('queue.slots missing (NullReference)');
    return body.queue;
  }

  async getHistory(): Promise<Json[]> {
    const params: [string, string][] = [
      ['start', '0'],
      ['limit', String(this.o.historyLimit ?? 60)],
    ];
    if (this.o.category) params.push(['category', this.o.category]);
    const body = await this.getJson('history', params);
    if (!isObj(body.history) || !Array.isArray(body.history.slots))
      throw new Error('history.slots missing (NullReference)');
    return body.history.slots as Json[];
  }

  // ---- Sabnzbd (the download client) ----

  /** Test(): version, auth (get_config), global config, category; throws ArrTestFailure with the arr's text. */
  async test(): Promise<void> {
    let version: string;
    try {
      version = await this.getVersion();
    } catch (err) {
      throw new ArrTestFailure(`Unable to connect to SABnzbd: ${(err as Error).message}`);
    }
    if (!/^(\d+)\.(\d+)\.(\d+|x)/.test(version) && version !== 'develop')
      throw new ArrTestFailure('Unknown Version: ' + version);
    let config: Json;
    try {
      config = await this.getConfig();
    } catch (err) {
      const message = (err as Error).message;
      if (message.includes('API Key Incorrect')) throw new ArrTestFailure('API Key Incorrect');
      if (message.includes('API Key Required')) throw new ArrTestFailure('API Key Required');
      throw new ArrTestFailure(`Test was aborted due to an error: ${message}`);
    }
    const misc = isObj(config.misc) ? config.misc : {};
    if (bool(misc.pre_check) && !/^(\d+)\.(\d+)/.test(version))
      throw new ArrTestFailure('Disable Check Before Download');
    const cats = (Array.isArray(config.categories) ? config.categories : []) as Json[];
    const cat = cats.find((c) => c.name === (this.o.category || '*'));
    if (this.o.category && !cat) throw new ArrTestFailure('Category does not exist');
    if (cat && (typeof cat.dir !== 'string' || cat.dir.endsWith('*'))) throw new ArrTestFailure('Enable Job Folders');
    for (const s of (Array.isArray(config.sorters) ? config.sorters : []) as Json[]) {
      const sortCats = (s.sort_cats ?? []) as string[];
      if (bool(s.is_active) && (sortCats.length === 0 || sortCats.includes(this.o.category || 'Default')))
        throw new ArrTestFailure('Disable Sorting');
    }
    for (const kind of ['tv', 'movie', 'date'])
      if (bool(misc[`enable_${kind}_sorting`])) throw new ArrTestFailure('Disable Sorting');
    if (removesCompleted(misc)) throw new ArrTestFailure('SABnzbd removes completed downloads');
    if (typeof misc.complete_dir !== 'string' || !misc.complete_dir.startsWith('/'))
      throw new ArrTestFailure('complete_dir is not absolute (the arr would ask fullstatus)');
  }

  /** The category's output folder as GetStatus() computes it (complete_dir + category dir). */
  async outputRootFolder(): Promise<string> {
    const config = await this.getConfig();
    const misc = config.misc as Json;
    const cat = ((config.categories ?? []) as Json[]).find((c) => c.name === this.o.category);
    const dir = String(cat?.dir ?? '').replace(/\*$/, '');
    if (dir.startsWith('/')) return dir;
    return dir ? `${String(misc.complete_dir).replace(/\/$/, '')}/${dir}` : String(misc.complete_dir);
  }

  /** GetItems(): one queue poll then one history poll, mapped like Sabnzbd.GetQueue/GetHistory. */
  async getItems(): Promise<ArrItem[]> {
    const queue = await this.getQueue();
    const out: ArrItem[] = [];
    for (const slot of queue.slots as Json[]) {
      const status = enumStatus(slot.status);
      if (status === 'Deleted') continue;
      const priority = str(slot.priority, 'priority');
      const paused = (bool(queue.paused) && priority !== 'Force') || status === 'Paused';
      const item: ArrItem = {
        downloadId: str(slot.nzo_id, 'nzo_id'),
        title: str(slot.filename, 'filename'),
        category: str(slot.cat, 'cat'),
        totalSize: Math.round(decimal(slot.mb, 'mb') * 1048576),
        remainingSize: Math.round(decimal(slot.mbleft, 'mbleft') * 1048576),
        remainingTime: parseTimeLeft(str(slot.timeleft, 'timeleft')),
        status: paused ? 'Paused' : ['Queued', 'Grabbing', 'Propagating'].includes(status) ? 'Queued' : 'Downloading',
      };
      int(slot.percentage, 'percentage');
      int(slot.index, 'index');
      if (item.status === 'Paused') item.remainingTime = null;
      out.push(item);
    }
    for (const slot of await this.getHistory()) {
      const status = enumStatus(slot.status);
      if (status === 'Deleted') continue;
      const item: ArrItem = {
        downloadId: str(slot.nzo_id, 'nzo_id'),
        title: str(slot.name, 'name'),
        category: str(slot.category, 'category'),
        totalSize: long(slot.bytes, 'bytes'),
        remainingSize: 0,
        remainingTime: 0,
        status: 'Downloading',
      };
      int(slot.download_time, 'download_time');
      const failMessage = slot.fail_message === null ? '' : str(slot.fail_message, 'fail_message');
      if (status === 'Failed') {
        item.status = /^unpacking failed, write error or disk is full\?$/i.test(failMessage) ? 'Warning' : 'Failed';
        item.message = failMessage;
      } else if (status === 'Completed') item.status = 'Completed';
      const storage = slot.storage === null || slot.storage === undefined ? '' : str(slot.storage, 'storage');
      if (storage) item.outputPath = outputPathOf(storage, item.title);
      out.push(item);
    }
    // The arr keeps only items of its own category ('*' when it has none).
    return out.filter((i) => i.category === (this.o.category || '*'));
  }

  /** RemoveItem(): queue delete if it is still queued, else history delete (archive=0 for failed items). */
  async removeItem(downloadId: string, deleteData: boolean, failed = false): Promise<void> {
    const queue = await this.getQueue();
    const inQueue = (queue.slots as Json[]).some((s) => s.nzo_id === downloadId);
    const del = deleteData ? '1' : '0';
    if (inQueue) {
      await this.getJson('queue', [
        ['name', 'delete'],
        ['del_files', del],
        ['value', downloadId],
      ]);
    } else {
      await this.getJson('history', [
        ['name', 'delete'],
        ['del_files', del],
        ['value', downloadId],
        ['archive', failed ? '0' : '1'],
      ]);
    }
  }
}

/** ProcessRequest's CheckForError: a root status false (bool or string) or a plain `error` body. */
function checkForError(text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (text.toLowerCase().startsWith('error')) throw new DownloadClientException(text.replace(/^error:?\s*/i, ''));
    return;
  }
  if (isObj(parsed) && (typeof parsed.status === 'boolean' || typeof parsed.status === 'string')) {
    if (String(parsed.status).toLowerCase() === 'false')
      throw new DownloadClientException(`Error response received from SABnzbd: ${String(parsed.error ?? '')}`);
  }
}

/** The highest ancestor of `storage` named like the slot, else storage itself (docs/sabnzbd.md). */
function outputPathOf(storage: string, name: string): string {
  let out = storage;
  const parts = storage.split('/');
  for (let i = parts.length - 1; i > 0; i--) {
    if (parts[i] === name) out = parts.slice(0, i + 1).join('/');
  }
  return out;
}

function removesCompleted(misc: Json): boolean {
  const option = misc.history_retention_option;
  if (typeof option === 'string' && option !== '') {
    if (['number-archive', 'number-delete', 'all-archive', 'all-delete'].includes(option)) return true;
    if (option.startsWith('days-')) return Number(misc.history_retention_number) < 14;
    return false;
  }
  const legacy = misc.history_retention;
  return typeof legacy === 'string' && legacy !== '' && legacy !== '0' && !/^(1[4-9]|[2-9]\d|\d{3,})d$/.test(legacy);
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new Error(`${field}: expected a string, got ${JSON.stringify(v)}`);
  return v;
}

function bool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'True' || v === 'true';
}

function enumStatus(v: unknown): string {
  const text = str(v, 'status');
  const match = STATUSES.find((s) => s.toLowerCase() === text.toLowerCase());
  if (!match) throw new Error(`JsonSerializationException: Error converting value "${text}" to type DownloadStatus`);
  return match;
}

/** Newtonsoft into decimal: a number or a numeric string. */
function decimal(v: unknown, field: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  throw new Error(`${field}: not a decimal: ${JSON.stringify(v)}`);
}

/** Newtonsoft into int: an integral number or an integral numeric string ("57.5" and 57.5 throw). */
function int(v: unknown, field: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  throw new Error(`${field}: not an integer: ${JSON.stringify(v)}`);
}
const long = int;

/** Exactly 3 (h:m:s) or 4 (d:h:m:s) integer parts, or the arr throws. */
function parseTimeLeft(text: string): number {
  const parts = text.split(':').map((p) => {
    if (!/^\d+$/.test(p)) throw new Error(`timeleft: bad part in ${text}`);
    return Number(p);
  });
  if (parts.length === 3) return parts[0]! * 3600 + parts[1]! * 60 + parts[2]!;
  if (parts.length === 4) return parts[0]! * 86400 + parts[1]! * 3600 + parts[2]! * 60 + parts[3]!;
  throw new Error('Expected either 0:0:0:0 or 0:0:0 format, but received: ' + text);
}
