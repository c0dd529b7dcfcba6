/** Client-side rules of docs/console-contract.md §5/§9 for the Queue screen, kept pure so they are unit-tested. */

export const MAX_NZB_BYTES = 100 * 1024 * 1024;

/** docs/console-contract.md §5 NZB upload: the first failing rule's text, or undefined when the file may be sent. */
export function nzbFileError(file: { name: string; size: number }): string | undefined {
  if (!file.name.toLowerCase().endsWith('.nzb')) return 'Only .nzb files are allowed';
  if (file.size > MAX_NZB_BYTES) return 'File size must be less than 100MB';
  return undefined;
}

/** docs/console-contract.md §5 scan path. */
export function scanPathError(path: string): string | undefined {
  const trimmed = path.trim();
  if (!trimmed) return 'Path is required';
  if (!trimmed.startsWith('/')) return 'Path must be absolute (start with /)';
  return undefined;
}

/** docs/console-contract.md §9: the queue error tooltip shows at most 200 characters. */
export const ERROR_TOOLTIP_MAX = 200;

export function errorTooltip(message: string): string {
  return message.length > ERROR_TOOLTIP_MAX ? `${message.slice(0, ERROR_TOOLTIP_MAX)}...` : message;
}

/** docs/console-contract.md §3 scan progress: files_added / files_found, capped at 100 %. */
export function scanProgress(found: number, added: number): number {
  if (found <= 0) return 0;
  return Math.min(100, (added / found) * 100);
}

/** docs/console-contract.md §2 scan status label. */
export function scanLabel(s: { status: string; last_error: string | null }): string {
  if (s.status === 'scanning') return 'Scanning';
  if (s.status === 'canceling') return 'Canceling...';
  if (s.last_error) return 'Error';
  return 'Idle';
}
