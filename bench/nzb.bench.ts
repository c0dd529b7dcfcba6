/**
 * NZB benchmark (npm run bench -- nzb): parse + layout of a generated NZB describing 50 GB in 70,000 articles
 * (target < 2 s), against two baselines measured in the same run on the same data: a bare saxes pass (no logic of
 * ours) and JSON.parse of the same content as JSON. Also: offset lookups, and the
 * worker hop that decides WORKER_THRESHOLD_BYTES. Medians of several runs; ratios are what to compare across machines.
 */
import { performance } from 'node:perf_hooks';
import { SaxesParser } from 'saxes';
import { layoutFromFirstAndLast } from '../appliance/nzb/layout.js';
import { findSegment } from '../appliance/layout/index.js';
import { unpackNzb } from '../appliance/nzb/pack.js';
import { parseNzb, parseNzbPacked } from '../appliance/nzb/parser.js';
import { generateLargeNzb } from '../tests/support/nzb/generate.js';
import { createParseNzbPool, parseNzbInPool } from '../workers/parse-nzb.client.js';

const RUNS = 5;

function median(fn: () => void, runs = RUNS): number {
  fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function medianAsync(fn: () => Promise<void>, runs = RUNS): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export interface NzbBenchFigures {
  xmlBytes: number;
  articles: number;
  parseAndLayoutMs: number;
  parseMs: number;
  layoutMs: number;
  rawSaxesMs: number;
  jsonParseMs: number;
  lookupNs: number;
  /** Per NZB size (articles): inline parse vs a full round trip through the worker (parse, move, unpack). */
  workerHop: { articles: number; xmlBytes: number; inlineMs: number; poolMs: number; mainThreadMs: number }[];
}

export async function measure(log: (m: string) => void = console.error): Promise<NzbBenchFigures> {
  log('generating the 50 GB / 70,000-article NZB');
  const generated = generateLargeNzb();
  const xml = generated.xml;
  const first = generated.files[0]!.first;
  log('parse + layout');
  const parseAndLayoutMs = median(() => {
    const doc = parseNzb(xml);
    const outcome = layoutFromFirstAndLast(doc.files[0]!, first);
    if (outcome.kind !== 'ok') throw new Error(`layout failed: ${JSON.stringify(outcome)}`);
  });
  const parseMs = median(() => void parseNzb(xml));
  const file = parseNzb(xml).files[0]!;
  const layoutMs = median(() => void layoutFromFirstAndLast(file, first));
  log('baselines: bare saxes, JSON.parse');
  const rawSaxesMs = median(() => {
    const sax = new SaxesParser({ xmlns: false, position: true });
    let n = 0;
    sax.on('opentag', () => n++);
    sax.write(xml.toString('utf8')).close();
  });
  const json = JSON.stringify({ meta: {}, files: [{ ...file, segments: file.segments }] });
  const jsonParseMs = median(() => void JSON.parse(json));
  log('layout lookups');
  const outcome = layoutFromFirstAndLast(file, first);
  if (outcome.kind !== 'ok') throw new Error('layout failed');
  const lookups = 1_000_000;
  const lookupMs = median(() => {
    for (let i = 0; i < lookups; i++) findSegment(outcome.layout, (i * 49_999.7) % outcome.layout.size);
  });
  log('worker hop vs inline, by NZB size');
  const pool = createParseNzbPool();
  const workerHop: NzbBenchFigures['workerHop'] = [];
  try {
    for (const articles of [1_000, 10_000, 30_000, 70_000]) {
      const small = generateLargeNzb({ articles, totalBytes: articles * 714_286 }).xml;
      const inlineMs = median(() => void parseNzb(small));
      let dispatchMs = 0;
      const poolMs = await medianAsync(async () => {
        const copy = new Uint8Array(small);
        const t = performance.now();
        const pending = parseNzbInPool(pool, copy);
        dispatchMs = performance.now() - t; // the synchronous part on this thread: queueing and transfer
        await pending;
      });
      // the rest of the main thread's share is unpacking the moved result
      const packed = parseNzbPacked(small);
      const unpackMs = median(() => void unpackNzb(packed));
      workerHop.push({ articles, xmlBytes: small.length, inlineMs, poolMs, mainThreadMs: dispatchMs + unpackMs });
    }
  } finally {
    await pool.destroy();
  }
  return {
    xmlBytes: xml.length,
    articles: file.segments.length,
    parseAndLayoutMs,
    parseMs,
    layoutMs,
    rawSaxesMs,
    jsonParseMs,
    lookupNs: (lookupMs * 1e6) / lookups,
    workerHop,
  };
}

export async function run(log: (m: string) => void = console.error): Promise<string> {
  const f = await measure(log);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return [
    `NZB benchmark: ${f.articles.toLocaleString('en')} articles, 50 GB, ${(f.xmlBytes / 1e6).toFixed(1)} MB of XML; medians of ${RUNS} runs.`,
    '',
    '| step | time | vs bare saxes |',
    '|---|---|---|',
    `| parse + layout (target < 2 s) | ${ms(f.parseAndLayoutMs)} | ${(f.parseAndLayoutMs / f.rawSaxesMs).toFixed(2)}x |`,
    `| parse only | ${ms(f.parseMs)} | ${(f.parseMs / f.rawSaxesMs).toFixed(2)}x |`,
    `| layout only | ${ms(f.layoutMs)} | |`,
    `| baseline: bare saxes pass (decode + SAX, no logic) | ${ms(f.rawSaxesMs)} | 1.00x |`,
    `| baseline: JSON.parse of the same data | ${ms(f.jsonParseMs)} | ${(f.jsonParseMs / f.rawSaxesMs).toFixed(2)}x |`,
    `| findSegment | ${f.lookupNs.toFixed(0)} ns per lookup | |`,
    '',
    '| articles | XML | inline parse | via worker (round trip) | main thread busy via worker |',
    '|---|---|---|---|---|',
    ...f.workerHop.map(
      (w) =>
        `| ${w.articles.toLocaleString('en')} | ${(w.xmlBytes / 1e6).toFixed(2)} MB | ${ms(w.inlineMs)} | ${ms(w.poolMs)} | ~${ms(w.mainThreadMs)} |`,
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
