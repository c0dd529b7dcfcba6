/** Parsing of the yEnc control lines (=ybegin, =ypart, =yend). Bad values are reported, never thrown past. */
import { CorruptArticleError } from './errors.js';

export type YencFields = Record<string, string>;

/** Splits "=ybegin part=1 line=128 size=10 name=a b.bin" into fields; `name` takes the rest of the line. */
export function parseYencLine(line: string): YencFields {
  const fields: YencFields = {};
  const nameAt = line.search(/ name=/);
  const head = nameAt >= 0 ? line.slice(0, nameAt) : line;
  if (nameAt >= 0) fields.name = line.slice(nameAt + 6).trim();
  for (const token of head.split(' ').slice(1)) {
    const eq = token.indexOf('=');
    if (eq > 0) fields[token.slice(0, eq).toLowerCase()] = token.slice(eq + 1);
  }
  return fields;
}

export function intField(fields: YencFields, key: string, required: boolean): number | undefined {
  const raw = fields[key];
  if (raw === undefined) {
    if (required) throw new CorruptArticleError(`yEnc header lacks ${key}=`);
    return undefined;
  }
  if (!/^\d{1,15}$/.test(raw)) throw new CorruptArticleError(`yEnc ${key}=${raw.slice(0, 20)} is not a number`);
  return Number(raw);
}

export function crcField(fields: YencFields, key: string): string | undefined {
  const raw = fields[key];
  if (raw === undefined) return undefined;
  if (!/^[0-9a-fA-F]{1,8}$/.test(raw)) throw new CorruptArticleError(`yEnc ${key}=${raw.slice(0, 20)} is not a CRC32`);
  return raw.toLowerCase().padStart(8, '0');
}
