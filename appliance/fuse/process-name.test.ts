import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { processName } from './process-name.js';

test("a FUSE reader's process name comes from /proc/<pid>/comm; none for an unseen pid", () => {
  const proc = mkdtempSync(path.join(tmpdir(), 'spool-proc-'));
  try {
    mkdirSync(path.join(proc, '77'));
    writeFileSync(path.join(proc, '77', 'comm'), 'Plex Media Scan\n');
    assert.equal(processName(77, proc), 'Plex Media Scan');
    assert.equal(processName(78, proc), undefined);
    assert.equal(processName(0, proc), undefined);
    assert.equal(processName(process.pid), 'node', 'this process, in the real /proc');
  } finally {
    rmSync(proc, { recursive: true, force: true });
  }
});
