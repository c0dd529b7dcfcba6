import type { ImportRunner } from './import.runner.js';
import type { JobOutputService } from './job-output.service.js';
import type { NzbImporter } from './nzb-import.service.js';
import type { QueueService } from './queue.service.js';
import type { ScanService } from './scan.service.js';

/** The importer's parts as the app builds them (appliance/app/importer.ts) and routes use them. */
export interface ImporterDomain {
  queue: QueueService;
  runner: ImportRunner;
  scan: ScanService;
  importer: NzbImporter;
  /** The import strategy: where completed jobs are published for download clients. */
  output: JobOutputService;
  close(): Promise<void>;
}
