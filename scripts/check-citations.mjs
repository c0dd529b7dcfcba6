#!/usr/bin/env node
// Every reference in the code and docs must resolve inside the repository (run by `npm run lint`). A person who
// clones Spool has no design notes, research notes or the original console specification: cite the file in
// docs/ that holds the fact (docs/console-contract.md §N, docs/architecture.md, ...). Exits 1 with one line per hit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const self = 'scripts/check-citations.mjs';

/** What points outside the repository. Case matters for the design-note names (docs/architecture.md is ours). */
const FORBIDDEN = [
  [/\bspec\s?§/i, 'cites "spec §N": cite docs/console-contract.md §N'],
  [/\bSTACK\.md\b/, 'cites STACK.md, which is not in the repository'],
  [/\bARCHITECTURE\.md\b/, 'cites ARCHITECTURE.md (not ours): cite docs/architecture.md'],
  [/\bSTYLE\.md\b/, 'cites STYLE.md, which is not in the repository'],
  [/\bresearch(\/|\s+notes?\b|\s+§)/i, 'cites research notes, which are not in the repository'],
  [/console-spec\.md|sabnzbd-contract\.md|anchors-mission\.md/, 'cites a document outside the repository'],
  [/\/work\/shared\b/, 'cites a path outside the repository'],
];
const TEXT = /\.(ts|tsx|js|mjs|cjs|c|h|md|json|ya?ml|sh|gyp|html|css)$|(^|\/)(Dockerfile|run|check)$/;

const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
});
const problems = [];
for (const file of listed.split('\n')) {
  if (!file || file === self || file === 'package-lock.json' || !TEXT.test(file)) continue;
  let text;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue; // listed but deleted in the working tree
  }
  text.split('\n').forEach((line, i) => {
    for (const [pattern, why] of FORBIDDEN) if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${why}`);
  });
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log('citations: every reference resolves inside the repository');
