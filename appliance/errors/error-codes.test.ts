import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError, ERROR_CODES, type ErrorCode } from './app-error.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/errors.md', import.meta.url)), 'utf8');

/** Rows of the table: | `CODE` | status | retry | meaning | */
function documentedRows(): Map<string, { status: number; retry: string; meaning: string }> {
  const rows = new Map<string, { status: number; retry: string; meaning: string }>();
  for (const line of doc.split('\n')) {
    const m = /^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|\s*(yes|no)\s*\|\s*(.+?)\s*\|$/.exec(line);
    if (m) rows.set(m[1] as string, { status: Number(m[2]), retry: m[3] as string, meaning: m[4] as string });
  }
  return rows;
}

test('docs/errors.md lists every error code with its status and retry flag, and nothing else', () => {
  const rows = documentedRows();
  for (const [code, { status, retryable }] of Object.entries(ERROR_CODES)) {
    const row = rows.get(code);
    assert.ok(row, `docs/errors.md has no row for ${code}`);
    assert.equal(row.status, status, `${code}: documented status`);
    assert.equal(row.retry, retryable ? 'yes' : 'no', `${code}: documented retry`);
    assert.ok(row.meaning.length > 10, `${code}: meaning is explained`);
  }
  const extra = [...rows.keys()].filter((c) => !(c in ERROR_CODES));
  assert.deepEqual(extra, [], 'docs/errors.md documents codes that do not exist');
});

test('AppError takes status and retryability from the registry', () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const err = new AppError(code, 'x');
    assert.equal(err.status, ERROR_CODES[code].status);
    assert.equal(err.retryable, ERROR_CODES[code].retryable);
  }
});
