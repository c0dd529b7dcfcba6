/**
 * The SABnzbd API's wire shapes as Radarr and Sonarr read them (docs/sabnzbd.md). Their JSON parser is strict:
 * a status outside the 16 names below fails the whole poll, `timeleft` must be H:MM:SS, `mb`/`mbleft` are decimal
 * strings, `percentage` an integer string, `bytes` and `download_time` integers.
 */

/** The only status names the arrs accept (any other string hides every job of the poll). */
export const SAB_STATUSES = [
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
] as const;
export type SabStatus = (typeof SAB_STATUSES)[number];

/** Priority names as SABnzbd writes them in queue slots (the arrs parse them case-sensitively). */
export type SabPriorityName = 'Force' | 'High' | 'Normal' | 'Low';

/** A failure: `{status: false, error}` on HTTP 200, the form the arrs turn into a readable message. */
export interface SabError {
  status: false;
  error: string;
}

export interface SabQueueSlot {
  index: number;
  nzo_id: string;
  unpackopts: string;
  priority: SabPriorityName;
  script: string;
  filename: string;
  labels: string[];
  password: string;
  cat: string;
  mbleft: string;
  mb: string;
  size: string;
  sizeleft: string;
  percentage: string;
  mbmissing: string;
  direct_unpack: null;
  status: SabStatus;
  timeleft: string;
  avg_age: string;
  time_added: number;
}

export interface SabQueue {
  status: SabStatus;
  paused: boolean;
  paused_all: boolean;
  pause_int: string;
  noofslots_total: number;
  noofslots: number;
  start: number;
  limit: number;
  finish: number;
  timeleft: string;
  speed: string;
  kbpersec: string;
  mb: string;
  mbleft: string;
  size: string;
  sizeleft: string;
  speedlimit: string;
  speedlimit_abs: string;
  have_warnings: string;
  diskspace1: string;
  diskspace2: string;
  diskspacetotal1: string;
  diskspacetotal2: string;
  diskspace1_norm: string;
  diskspace2_norm: string;
  version: string;
  finishaction: null;
  quota: string;
  have_quota: boolean;
  left_quota: string;
  cache_art: string;
  cache_size: string;
  slots: SabQueueSlot[];
}

export interface SabHistorySlot {
  completed: number;
  name: string;
  nzb_name: string;
  category: string;
  pp: string;
  script: string;
  report: string;
  url: string;
  status: SabStatus;
  nzo_id: string;
  /** The folder the arr imports from (absolute); empty until the job reads where the arr will look. */
  storage: string;
  path: string;
  script_line: string;
  download_time: number;
  postproc_time: number;
  stage_log: { name: string; actions: string[] }[];
  downloaded: number;
  completeness: null;
  fail_message: string;
  url_info: string;
  bytes: number;
  size: string;
  meta: null;
  series: string;
  duplicate_key: string;
  md5sum: string;
  password: string;
  action_line: string;
  loaded: boolean;
  retry: boolean;
  archive: boolean;
  time_added: number;
}

export interface SabHistory {
  noofslots: number;
  ppslots: number;
  last_history_update: number;
  version: string;
  total_size: string;
  month_size: string;
  week_size: string;
  day_size: string;
  slots: SabHistorySlot[];
}

/** A category as get_config lists it (`*` first). `dir` never ends in `*` (the arrs reject job-folder marks). */
export interface SabCategory {
  name: string;
  order: number;
  pp: string;
  script: string;
  dir: string;
  newzbin: string;
  priority: number;
}

export interface SabConfig {
  misc: {
    complete_dir: string;
    download_dir: string;
    pre_check: 0;
    history_retention: string;
    history_retention_option: string;
    history_retention_number: number;
    enable_tv_sorting: 0;
    enable_movie_sorting: 0;
    enable_date_sorting: 0;
    api_key: string;
    nzb_key: string;
    version: string;
  };
  categories: SabCategory[];
  sorters: never[];
  servers: never[];
}

/** Parameters of one call: the query first, then plain multipart form fields (SABnzbd merges both). */
export interface SabParams {
  get(name: string): string | undefined;
}
