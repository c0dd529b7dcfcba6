/**
 * rclone's value syntaxes (what the console edits: `32M`, `2G`, `off`, `10m`, `504h`) turned into the units its
 * remote control takes. rclone ≥ 1.60 parses a size sent over RC as a number of bytes and a duration as a number
 * of nanoseconds; older releases of the VFS options (`time.Duration` fields) refuse strings altogether, so numbers
 * are what every release accepts (docs/configuration.md "How the rclone keys reach rclone").
 */

/** rclone's `off` for a size (SizeSuffix -1: no limit). */
export const SIZE_OFF = -1;

/**
 * rclone's `off` for a duration is the largest int64, which a JSON number from JavaScript cannot carry exactly
 * (it rounds to 2^63, which overflows Go's int64). 2^62 ns (~146 years) is exact and is "never" in practice.
 */
export const DURATION_OFF_NS = 2 ** 62;

const SIZE_UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/**
 * A size in rclone's syntax as bytes: binary multiples (`1K` = 1024), a plain number is KiB as on rclone's command
 * line, `b` is bytes, and `i`/`B` after the unit change nothing (`32Mi`, `32MiB`, `32MB` are all 32 MiB). `off` is
 * -1. Throws on anything else (the schema refuses it before it gets here).
 */
export function sizeToBytes(value: string): number {
  const s = value.trim();
  if (/^off$/i.test(s)) return SIZE_OFF;
  const m = /^(\d+(?:\.\d+)?)(?:([bkmgtp])i?b?)?$/i.exec(s);
  if (!m) throw new Error(`not an rclone size: ${JSON.stringify(value)}`);
  const unit = SIZE_UNITS[(m[2] ?? 'k').toLowerCase()] as number;
  return Math.round(Number(m[1]) * unit);
}

const NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86_400e9,
  w: 7 * 86_400e9,
  M: 30 * 86_400e9,
  y: 365 * 86_400e9,
};

/**
 * A duration in rclone's syntax as nanoseconds: Go durations (`1h30m`, `1.5s`, `250ms`) plus rclone's `d`, `w`,
 * `M` (30 days) and `y` (365 days); a plain number is seconds; `off` is DURATION_OFF_NS. Throws on anything else.
 */
export function durationToNs(value: string): number {
  const s = value.trim();
  if (s === 'off') return DURATION_OFF_NS;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1e9);
  let total = 0;
  let rest = s;
  while (rest) {
    const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w|M|y)/.exec(rest);
    if (!m) throw new Error(`not an rclone duration: ${JSON.stringify(value)}`);
    total += Number(m[1]) * (NS[m[2] as string] as number);
    rest = rest.slice(m[0].length);
  }
  return Math.round(total);
}

/** An octal umask as written in config (`002`, `0022`) as the number rclone's Umask field holds. */
export function umaskToNumber(value: string): number {
  return parseInt(value, 8);
}
