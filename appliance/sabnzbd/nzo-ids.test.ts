import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '../store/index.js';
import { NzoIds } from './nzo-ids.js';
import { LmdbNzoIdStore } from './nzo-ids.store.js';

test('the nzo_id salt is made once per store and kept across reopening; ids parse back only with it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spool-nzo-'));
  try {
    const store = openStore({ rootPath: dir });
    const salts = new LmdbNzoIdStore(store);
    assert.equal(await salts.saltOrCreate(() => 'first'), 'first');
    assert.equal(await salts.saltOrCreate(() => 'second'), 'first', 'an existing salt is never replaced');
    const ids = await NzoIds.open(salts);
    assert.equal(ids.of(7), 'SABnzbd_nzo_first_7');
    assert.equal(ids.parse('SABnzbd_nzo_first_7'), 7);
    assert.equal(ids.parse('SABnzbd_nzo_other_7'), undefined, "another store's id names nothing here");
    await store.close();

    const again = openStore({ rootPath: dir });
    assert.equal((await NzoIds.open(new LmdbNzoIdStore(again))).of(7), 'SABnzbd_nzo_first_7', 'same id after restart');
    again.meta.putSync('sabnzbd:nzo_salt', 'Not A Salt!');
    assert.equal(await new LmdbNzoIdStore(again).saltOrCreate(() => 'fresh'), 'fresh', 'a malformed salt is replaced');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
