import type { Ctx } from '../http/context.js';
import { readNzbUpload } from '../importer/index.js';
import { fetchNzb, type SabnzbdService, type SabParams } from '../sabnzbd/index.js';

/** What a mode gets: the merged parameters, the request (addfile reads its body), the service. */
export interface SabCall {
  params: SabParams;
  ctx: Ctx;
  sab: SabnzbdService;
  /** `auth` answers whether a key is Spool's API key. */
  isApiKey(key: string): Promise<boolean>;
}

export interface SabMode {
  /** SABnzbd answers these without a key (`version`, `auth`). */
  anonymous?: boolean;
  /** SABnzbd has no XML form of this reply: `output=xml` still gets JSON. */
  jsonOnly?: boolean;
  /** True when the call changes something (its answer then carries no wildcard CORS); absent: read-only. */
  changes?(params: SabParams): boolean;
  run(call: SabCall): unknown;
}

/** `name=` sub-commands of queue and history, as SABnzbd spells them. */
const always = () => true;
/** queue, history and warnings only read, unless `name=` names an action. */
const withAction = (p: SabParams) => Boolean(p.get('name'));

const queueActions: Record<string, (c: SabCall) => unknown> = {
  delete: (c) => c.sab.queueDelete(c.params),
  pause: (c) => c.sab.queuePause(c.params, true),
  resume: (c) => c.sab.queuePause(c.params, false),
};

/**
 * Every mode Spool answers (docs/sabnzbd.md). A mode missing here answers `not implemented`, as SABnzbd does.
 * The gate (sabnzbd.routes.ts) checks enabled, the key (unless `anonymous`) and writes the envelope.
 */
export const SAB_MODES: Record<string, SabMode> = {
  version: { anonymous: true, run: (c) => c.sab.version() },
  auth: {
    anonymous: true,
    run: async (c) => {
      const key = c.params.get('key');
      return { auth: key === undefined || (await c.isApiKey(key)) ? 'apikey' : 'badkey' };
    },
  },
  get_config: { run: (c) => c.sab.getConfig() },
  fullstatus: { run: (c) => c.sab.fullstatus() },
  // `status` without `name` is SABnzbd's older name for fullstatus.
  status: { run: (c) => c.sab.fullstatus() },
  get_cats: { run: (c) => c.sab.getCats() },
  addfile: {
    changes: always,
    run: async (c) => {
      // The file comes in field `name` (the arrs) or `nzbfile` (other clients); the other fields join the query.
      const upload = await readNzbUpload(c.ctx.req, ['name', 'nzbfile']);
      const params: SabParams = { get: (k) => c.params.get(k) ?? upload.fields[k] };
      return c.sab.add({ bytes: upload.bytes, filename: upload.filename }, params);
    },
  },
  addurl: {
    changes: always,
    run: async (c) => {
      const url = c.params.get('name') ?? '';
      // A full queue refuses before the NZB is fetched (the add itself checks again).
      await c.sab.admit();
      return c.sab.add(await fetchNzb(url), c.params);
    },
  },
  queue: {
    changes: withAction,
    run: (c) => {
      const name = c.params.get('name')?.toLowerCase();
      if (!name) return c.sab.queue(c.params);
      const action = queueActions[name];
      return action ? action(c) : { status: false, error: 'not implemented' };
    },
  },
  history: {
    changes: withAction,
    run: (c) => {
      const name = c.params.get('name')?.toLowerCase();
      if (!name) return c.sab.history(c.params);
      return name === 'delete' ? c.sab.historyDelete(c.params) : { status: false, error: 'not implemented' };
    },
  },
  pause: { changes: always, run: (c) => c.sab.pause(true) },
  resume: { changes: always, run: (c) => c.sab.pause(false) },
  warnings: { changes: withAction, run: (c) => c.sab.warnings(c.params.get('name')?.toLowerCase()) },
  server_stats: { run: (c) => c.sab.serverStats() },
};
