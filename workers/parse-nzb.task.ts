import { Piscina } from 'piscina';
import { NzbParseError } from '../appliance/nzb/errors.js';
import { layoutFile, type FileLayout } from '../appliance/nzb/layout.js';
import type { NzbLimits } from '../appliance/nzb/limits.js';
import { packNzb } from '../appliance/nzb/pack.js';
import { parseNzb } from '../appliance/nzb/parser.js';
import type { YencFacts } from '../appliance/nzb/types.js';

/**
 * Piscina task: parse a big NZB (and, when the importer already has yEnc facts, lay its files out) off the main
 * thread. The NZB bytes arrive moved (transferList), the result leaves moved: one packed buffer for the document;
 * requested layouts come back as plain data (structured clone). Pure: no I/O, no config.
 */
export interface ParseNzbTaskInput {
  nzb: Uint8Array;
  limits?: Partial<NzbLimits>;
  /** Files to lay out now: file index and the yEnc facts known for it, by segment index. */
  layouts?: { fileIndex: number; facts: [number, YencFacts][] }[];
}

export type WireLayoutOutcome =
  | { kind: 'ok'; layout: FileLayout; warnings: string[] }
  | { kind: 'need-headers'; mustCheck: number[]; reason: string }
  | { kind: 'invalid'; reason: string };

export type ParseNzbTaskOutput =
  | { ok: true; packed: Uint8Array; layouts: WireLayoutOutcome[] }
  | { ok: false; error: { kind: NzbParseError['kind']; message: string; line: number; column: number } };

export default function parseNzbTask(input: ParseNzbTaskInput): ParseNzbTaskOutput | object {
  let doc;
  try {
    doc = parseNzb(input.nzb, input.limits);
  } catch (err) {
    // errors lose their class crossing threads, so bad input comes back as data the caller can rebuild
    if (!(err instanceof NzbParseError)) throw err;
    return { ok: false, error: { kind: err.kind, message: err.message, line: err.line, column: err.column } };
  }
  const transfer: ArrayBuffer[] = [];
  const layouts = (input.layouts ?? []).map(({ fileIndex, facts }): WireLayoutOutcome => {
    const file = doc.files[fileIndex];
    if (!file) return { kind: 'invalid', reason: `the NZB has no file ${fileIndex}` };
    const outcome = layoutFile(file, new Map(facts));
    return outcome; // plain data: structured clone carries it
  });
  const packed = packNzb(doc);
  transfer.push(packed.buffer as ArrayBuffer);
  const output: ParseNzbTaskOutput = { ok: true, packed, layouts };
  // move, not copy: the packed document and each layout leave this thread without a clone
  return Piscina.move({
    [Piscina.transferableSymbol]: transfer,
    [Piscina.valueSymbol]: output,
  } as unknown as Parameters<typeof Piscina.move>[0]);
}
