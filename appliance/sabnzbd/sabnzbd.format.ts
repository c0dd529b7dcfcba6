/** Numbers the way SABnzbd prints them, which is what the arrs' parser expects (docs/sabnzbd.md). */

const MIB = 1024 * 1024;
const UNITS = ['', 'K', 'M', 'G', 'T', 'P'];

/** SABnzbd's `to_units`: 1048576000 -> '1000.0 M' (with postfix 'B': '1000.0 MB'); below 1 MiB no decimals. */
export function toUnits(bytes: number, postfix = ''): string {
  let value = Math.abs(bytes);
  let n = 0;
  while (value > 1023 && n < 5) {
    value /= 1024;
    n++;
  }
  const sign = bytes < 0 ? '-' : '';
  return `${sign}${value.toFixed(n > 1 ? 1 : 0)} ${UNITS[n]}${postfix}`;
}

/** Megabytes with two decimals, as a string: the arr multiplies `mb`/`mbleft` by 1048576. */
export function megabytes(bytes: number): string {
  return (Math.max(0, bytes) / MIB).toFixed(2);
}

/** H:MM:SS (hours may pass 23), the only form besides D:H:M:S the arrs parse. */
export function timeLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Whole seconds since the epoch (SABnzbd's `completed`, `time_added`). */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
