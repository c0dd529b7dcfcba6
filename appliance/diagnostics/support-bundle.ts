import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { stringify } from 'yaml';
import { TAR_END, tarHeader, tarPadding } from '../backup/tar.js';
import type { SpoolConfig } from '../config/index.js';
import type { DiagnosticsReport } from './diagnostics.wire.js';
import { bundleConfig, scrubText, secretValues } from './secret-values.js';
import type { Versions } from './versions.js';

const gzipAsync = promisify(gzip);

/** What one support bundle holds (docs/diagnostics.md, "Support bundle"). */
export interface SupportBundleParts {
  /** The running config, secrets and all: they are removed here. */
  config: SpoolConfig;
  diagnostics: DiagnosticsReport;
  versions: Versions;
  /** The Prometheus text of GET /metrics now. */
  metrics: string;
  /** The last log lines, oldest first. */
  logLines: string[];
  now: number;
}

const README = `Spool support bundle

config.yaml       the running config; every secret removed (passwords, API keys, tokens: <name>_set says whether one is set)
diagnostics.json  GET /api/system/diagnostics at the time of the bundle
versions.json     Spool, Node, rclone, platform
metrics.txt       the Prometheus metrics (GET /metrics) at the time of the bundle
log.txt           the last log lines this process wrote (JSON lines)

Read it before you attach it to an issue: host names, paths and file names are in it.
`;

/** The bundle: a gzipped POSIX tar (tar -xzf unpacks it) of the files above, every secret string masked. */
export async function buildSupportBundle(p: SupportBundleParts): Promise<Buffer> {
  const secrets = secretValues(p.config);
  const scrub = (text: string) => scrubText(text, secrets);
  const files: Array<[string, string]> = [
    ['README.txt', README],
    ['config.yaml', stringify(bundleConfig(p.config))],
    ['diagnostics.json', scrub(JSON.stringify(p.diagnostics, null, 2))],
    ['versions.json', scrub(JSON.stringify(p.versions, null, 2))],
    ['metrics.txt', scrub(p.metrics)],
    ['log.txt', scrub(p.logLines.join('\n') + (p.logLines.length ? '\n' : ''))],
  ];
  const mtime = Math.floor(p.now / 1000);
  const blocks: Buffer[] = [];
  for (const [name, text] of files) {
    const data = Buffer.from(text, 'utf8');
    blocks.push(tarHeader(name, data.length, mtime), data, tarPadding(data.length));
  }
  blocks.push(TAR_END);
  return gzipAsync(Buffer.concat(blocks));
}
