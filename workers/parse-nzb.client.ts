import { extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { NzbParseError } from '../appliance/nzb/errors.js';
import { parseNzb } from '../appliance/nzb/parser.js';
import { unpackNzb } from '../appliance/nzb/pack.js';
import { resolveLimits, type NzbLimits } from '../appliance/nzb/limits.js';
import type { NzbDocument } from '../appliance/nzb/types.js';
import type { ParseNzbTaskInput, ParseNzbTaskOutput, WireLayoutOutcome } from './parse-nzb.task.js';

/**
 * Below this size parsing inline is cheaper than the hop to a worker (see docs/nzb.md for the measurement);
 * above it the main thread, which also serves streams, is spared the 70-100 ms per MB of XML that parsing costs.
 */
export const WORKER_THRESHOLD_BYTES = 1024 * 1024;

/** The task file next to this one: `.ts` under tsx, `.js` once compiled. */
export const PARSE_NZB_TASK = fileURLToPath(
  new URL(`./parse-nzb.task${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/**
 * The worker exits a second after its last parse (`minThreads: 0`; Piscina otherwise keeps at least one thread
 * for good): parsing a 100 MB NZB grows the worker's heap by several hundred MB, and only the thread's exit gives
 * that back to the system (docs/performance.md, import memory). Starting a worker again costs ~50 ms, next to
 * seconds of parsing.
 */
export function createParseNzbPool(options: { maxThreads?: number } = {}): Piscina {
  return new Piscina({
    filename: PARSE_NZB_TASK,
    minThreads: 0,
    maxThreads: options.maxThreads ?? 1,
    idleTimeout: 1_000,
    // the parse allocates only short-lived strings (saxes events); a small young generation collects them just as
    // well and keeps the worker's heap ~10 MB smaller at the import's peak (docs/performance.md, import memory)
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
}

export interface ParsedOffThread {
  doc: NzbDocument;
  layouts: WireLayoutOutcome[];
}

/**
 * Parses (and optionally lays out) an NZB in the pool. `nzb` is moved to the worker: the caller must not use it
 * afterwards. A Buffer that shares its memory with others (Node's small-buffer pool) is copied first, since
 * moving its ArrayBuffer would detach the neighbours. Bad input rejects with an `NzbParseError`.
 */
export async function parseNzbInPool(
  pool: Piscina,
  nzb: Uint8Array,
  options: {
    limits?: Partial<NzbLimits>;
    layouts?: ParseNzbTaskInput['layouts'];
    signal?: AbortSignal;
    brotli?: ParseNzbTaskInput['brotli'];
  } = {},
): Promise<ParsedOffThread> {
  const owned = nzb.byteOffset === 0 && nzb.byteLength === nzb.buffer.byteLength ? nzb : new Uint8Array(nzb);
  const { limits, layouts, brotli } = options;
  const input: ParseNzbTaskInput = { nzb: owned, limits, layouts, brotli };
  const output = (await pool.run(input, {
    transferList: [owned.buffer as ArrayBuffer],
    signal: options.signal,
  })) as ParseNzbTaskOutput;
  if (!output.ok) {
    const { kind, message, line, column } = output.error;
    const error = new NzbParseError(kind, '', line, column);
    error.message = message;
    throw error;
  }
  return { doc: unpackNzb(output.packed), layouts: output.layouts };
}

/** Inline for small NZBs, in the pool for big ones: the one entry point the importer needs. */
export async function parseNzbAuto(pool: Piscina, nzb: Uint8Array, limits?: Partial<NzbLimits>): Promise<NzbDocument> {
  if (nzb.byteLength < WORKER_THRESHOLD_BYTES) return parseNzb(nzb, limits);
  return (await parseNzbInPool(pool, nzb, { limits })).doc;
}

/** Compressed NZBs this small are decompressed and parsed inline (XML shrinks 4-10x: ~1 MiB of XML or less). */
export const WORKER_THRESHOLD_COMPRESSED_BYTES = 128 * 1024;
/** The size guess for the XML of a compressed NZB (it only sizes the segment arrays; unused capacity is not touched). */
const EXPECTED_RATIO = 8;
const decompress = promisify(brotliDecompress);

/**
 * Parses an NZB as the queue stores it (brotli): a big one is moved to the worker compressed and decompressed there
 * while it is parsed, so the process never holds the whole XML (docs/performance.md, import memory); a small one
 * is decompressed and parsed inline. Corrupt compressed data rejects with an `NzbParseError` like bad XML.
 */
export async function parseStoredNzb(
  pool: Piscina,
  compressed: Uint8Array,
  limits?: Partial<NzbLimits>,
): Promise<NzbDocument> {
  if (compressed.byteLength >= WORKER_THRESHOLD_COMPRESSED_BYTES) {
    const expectedBytes = compressed.byteLength * EXPECTED_RATIO;
    return (await parseNzbInPool(pool, compressed, { limits, brotli: { expectedBytes } })).doc;
  }
  const maxBytes = resolveLimits(limits).maxBytes;
  let xml: Buffer;
  try {
    xml = await decompress(compressed, { maxOutputLength: maxBytes + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new NzbParseError('limit', `the document is larger than ${maxBytes} bytes`);
    throw new NzbParseError('malformed', `the stored NZB could not be decompressed (${(err as Error).message})`);
  }
  return parseNzb(xml, limits);
}
