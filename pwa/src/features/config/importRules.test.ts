import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from './serverConfig';
import { importErrors, importForm, importPayload } from './importRules';

const saved = { ...DEFAULTS.import, archive_passwords_set: true, archive_passwords_count: 2 };

test('the defaults are a valid form, and a payload sends lists as lists and no passwords', () => {
  const form = importForm(saved);
  assert.deepEqual(importErrors(form), {});
  const payload = importPayload(form);
  assert.deepEqual(payload.allowed_file_extensions, DEFAULTS.import.allowed_file_extensions);
  assert.equal('archive_passwords' in payload, false, 'blank keeps the stored passwords');
  assert.equal('clear_archive_passwords' in payload, false);
});

test("the server's rules: import dir required for symlink and strm, absolute paths, an http(s) strm URL", () => {
  const form = { ...importForm(saved), import_dir: '' };
  assert.match(importErrors({ ...form, import_strategy: 'symlink' }).import_dir ?? '', /required for the symlink/);
  assert.equal(importErrors({ ...form, import_strategy: 'none' }).import_dir, undefined);
  assert.match(importErrors({ ...form, import_dir: 'downloads' }).import_dir ?? '', /absolute path/);
  assert.match(importErrors({ ...form, watch_dir: 'watch' }).watch_dir ?? '', /absolute path/);
  assert.equal(importErrors({ ...form, strm_base_url: 'spool:8080' }).strm_base_url, 'Invalid URL format');
  assert.equal(importErrors({ ...form, strm_base_url: 'http://spool:8080' }).strm_base_url, undefined);
  assert.match(importErrors({ ...form, watch_interval_seconds: 0 }).watch_interval_seconds ?? '', /1 to 3600/);
});

test('archive passwords: typed lines replace the stored ones; clearing sends an empty list marked unset', () => {
  const form = importForm(saved);
  assert.deepEqual(importPayload({ ...form, archive_passwords: ' a \n\n b' }).archive_passwords, ['a', 'b']);
  const cleared = importPayload({ ...form, clear_archive_passwords: true });
  assert.deepEqual([cleared.archive_passwords, cleared.archive_passwords_set], [[], false]);
});
