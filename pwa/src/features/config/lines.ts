/** A list setting edited as text, one entry per line; blank lines and surrounding spaces are dropped. */
export const toLines = (list: readonly string[] | undefined): string => (list ?? []).join('\n');
export const fromLines = (text: string): string[] =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
