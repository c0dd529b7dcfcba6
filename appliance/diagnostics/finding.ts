import type { DiagnosticFinding, DiagnosticLevel, DiagnosticSection } from './diagnostics.wire.js';

/** A finding of one check: `fix` null for a plain fact (info). */
export function finding(
  check: string,
  section: DiagnosticSection,
  level: DiagnosticLevel,
  message: string,
  fix: string | null = null,
): DiagnosticFinding {
  return { check, section, level, message, fix };
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Bytes in words: `3.2 GiB`, `512 MiB`. */
export function bytesInWords(n: number): string {
  if (n >= GIB) return `${(n / GIB).toFixed(1)} GiB`;
  return `${Math.round(n / MIB)} MiB`;
}
