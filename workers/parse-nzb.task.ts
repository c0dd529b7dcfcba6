import { createBrotliDecompress } from 'node:zlib';
import { Piscina } from 'piscina';
import { NzbParseError } from '../appliance/nzb/errors.js';
import { layoutFile, type FileLayout } from '../appliance/nzb/layout.js';
import type { NzbLimits } from '../appliance/nzb/limits.js';
import { storeBuffers, unpackNzb, type PackedNzb } from '../appliance/nzb/pack.js';
import { NzbStreamParser, parseNzbPacked } from '../appliance/nzb/parser.js';
import type { YencFacts } from '../appliance/nzb/types.js';

/**
 * Piscina task: parse a big NZB (and, when the importer already has yEnc facts, lay its files out) off the main
 * thread. The NZB bytes arrive moved (transferList), the result leaves moved: the segments were written straight
 * into flat arrays while parsing (no object per segment, docs/nzb.md "Packed segments") and those buffers are
 * transferred as they are; requested layouts come back as plain data (structured clone). Pure: no I/O, no config.
 */
export interface ParseNzbTaskInput {
  nzb: Uint8Array;
  /**
   * `nzb` is brotli-compressed (as the queue stores it): decompressed here in 64 KiB steps, each parsed as it
   * comes, so the whole XML never exists at once; `expectedBytes` guesses its size (it sizes the segment arrays).
   */
  brotli?: { expectedBytes: number };
  limits?: Partial<NzbLimits>;
  /** Files to lay out now: file index and the yEnc facts known for it, by segment index. */
  layouts?: { fileIndex: number; facts: [number, YencFacts][] }[];
}

export type WireLayoutOutcome =
  | { kind: 'ok'; layout: FileLayout; warnings: string[] }
  | { kind: 'need-headers'; mustCheck: number[]; reason: string }
  | { kind: 'invalid'; reason: string };

export type ParseNzbTaskOutput =
  | { ok: true; packed: PackedNzb; layouts: WireLayoutOutcome[] }
  | { ok: false; error: { kind: NzbParseError['kind']; message: string; line: number; column: number } };

export default async function parseNzbTask(input: ParseNzbTaskInput): Promise<ParseNzbTaskOutput | object> {
  let packed: PackedNzb;
  try {
    packed = input.brotli
      ? await parseBrotli(input.nzb, input.brotli.expectedBytes, input.limits)
      : parseNzbPacked(input.nzb, input.limits);
  } catch (err) {
    // errors lose their class crossing threads, so bad input comes back as data the caller can rebuild
    if (!(err instanceof NzbParseError)) throw err;
    return { ok: false, error: { kind: err.kind, message: err.message, line: err.line, column: err.column } };
  }
  const doc = unpackNzb(packed);
  const layouts = (input.layouts ?? []).map(({ fileIndex, facts }): WireLayoutOutcome => {
    const file = doc.files[fileIndex];
    if (!file) return { kind: 'invalid', reason: `the NZB has no file ${fileIndex}` };
    const outcome = layoutFile(file, new Map(facts));
    return outcome; // plain data: structured clone carries it
  });
  const transfer = storeBuffers(packed);
  const output: ParseNzbTaskOutput = { ok: true, packed, layouts };
  // move, not copy: the segment arrays leave this thread without a clone
  return Piscina.move({
    [Piscina.transferableSymbol]: transfer,
    [Piscina.valueSymbol]: output,
  } as unknown as Parameters<typeof Piscina.move>[0]);
}

/**
 * Decompression is bounded by the parser: past `limits.maxBytes` of XML it throws and leaving the loop destroys
 * the stream, so a brotli bomb costs at most a chunk beyond the limit. Corrupt compressed data is a parse error.
 */
async function parseBrotli(compressed: Uint8Array, expectedBytes: number, limits?: Partial<NzbLimits>) {
  const parser = new NzbStreamParser(limits, expectedBytes);
  const xml = createBrotliDecompress({ chunkSize: 64 * 1024 });
  xml.end(compressed);
  try {
    for await (const chunk of xml) parser.write(chunk as Buffer);
  } catch (err) {
    if (err instanceof NzbParseError) throw err;
    throw new NzbParseError('malformed', `the stored NZB could not be decompressed (${(err as Error).message})`);
  } finally {
    xml.destroy();
  }
  return parser.endPacked();
}
