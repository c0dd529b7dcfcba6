/** Client-side rules of spec §5/§9 for the Queue screen, kept pure so they are unit-tested. */

export const MAX_NZB_BYTES = 100 * 1024 * 1024;

/** Spec §5 NZB upload: the first failing rule's text, or undefined when the file may be sent. */
export function nzbFileError(file: { name: string; size: number }): string | undefined {
  if (!file.name.toLowerCase().endsWith('.nzb')) return 'Only .nzb files are allowed';
  if (file.size > MAX_NZB_BYTES) return 'File size must be less than 100MB';
  return undefined;
}

/** Spec §5 scan path. */
export function scanPathError(path: string): string | undefined {
  const trimmed = path.trim();
  if (!trimmed) return 'Path is required';
  if (!trimmed.startsWith('/')) return 'Path must be absolute (start with /)';
  return undefined;
}

/** Spec §9: the queue error tooltip shows at most 200 characters. */
export const ERROR_TOOLTIP_MAX = 200;

export function errorTooltip(message: string): string {
  return message.length > ERROR_TOOLTIP_MAX ? `${message.slice(0, ERROR_TOOLTIP_MAX)}...` : message;
}

/** Spec §3 scan progress: files_added / files_found, capped at 100 %. */
export function scanProgress(found: number, added: number): number {
  if (found <= 0) return 0;
  return Math.min(100, (added / found) * 100);
}

/** Spec §2 scan status label. */
export function scanLabel(s: { status: string; last_error: string | null }): string {
  if (s.status === 'scanning') return 'Scanning';
  if (s.status === 'canceling') return 'Canceling...';
  if (s.last_error) return 'Error';
  return 'Idle';
}
