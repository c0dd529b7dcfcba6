import type { ImportError } from './import-errors.js';
import type { ImportRunner } from './import.runner.js';
import type { JobOutputService } from './job-output.service.js';
import type { NzbImporter } from './nzb-import.service.js';
import type { QueueService } from './queue.service.js';
import type { QueueRecord } from './queue.types.js';
import type { ScanService } from './scan.service.js';

/** The importer's parts as the app builds them (appliance/app/importer.ts) and routes use them. */
export interface ImporterDomain {
  queue: QueueService;
  runner: ImportRunner;
  scan: ScanService;
  importer: NzbImporter;
  /** The import strategy: where completed jobs are published for download clients. */
  output: JobOutputService;
  /** Who takes an NZB Spool cannot stream (the SABnzbd fallback host); it answers where it went, or undefined. */
  onUnstreamable(handler: UnstreamableHandler): void;
  close(): Promise<void>;
}

/** Forwards an unstreamable NZB somewhere else (docs/sabnzbd.md, fallback host); undefined = not forwarded. */
export type UnstreamableHandler = (
  item: QueueRecord,
  err: ImportError,
) => Promise<{ host: string; nzoId: string; reason: string } | undefined>;
