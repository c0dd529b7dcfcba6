/**
 * Fields that only take effect after a restart (docs/console-contract.md, "Restart banner"). Pure data, shared with
 * the console through config.wire.ts. `sabnzbd.complete_dir` roots the virtual tree and the arrs' paths, and the
 * import runner reads `import.queue_processing_interval_seconds` once at start, so changing either raises the banner.
 */
export const RESTART_REQUIRED_FIELDS = [
  'webdav.port',
  'import.max_processor_workers',
  'import.queue_processing_interval_seconds',
  'metadata.root_path',
  'metadata.database_url',
  'sabnzbd.complete_dir',
] as const;
