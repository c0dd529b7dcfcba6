import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { deriveSevenZipKey } from '../appliance/archive/sevenzip-key.js';
import { KeyRing } from '../appliance/archive/crypto.js';
import { createSevenZipKeyPool, sevenZipKeysIn } from './sevenzip-key.client.js';

// 7zAES key derivation (2^19 SHA-256 rounds by 7-Zip's default) runs in a worker: the main thread's event loop
// keeps turning while a key derives (docs/archives.md, "Encryption").

describe('7zAES keys in the worker', () => {
  const pool = createSevenZipKeyPool();
  after(() => pool.destroy());
  const keys = sevenZipKeysIn(pool);

  it('derives the same keys as the inline derivation, on another thread', async () => {
    const salt = randomBytes(16).toString('hex');
    for (const [password, s, kdf] of [
      ['pässwörd', salt, 10],
      ['p', '', 6],
      ['raw', salt, 0x3f],
    ] as const) {
      const out = await keys.inWorker({ password, salt: s, kdfLog2: kdf });
      assert.equal(out.key, deriveSevenZipKey(password, s, kdf));
      assert.notEqual(out.threadId, threadId, 'derived off the main thread');
    }
  });

  it('the event loop keeps turning while a 2^19-round key derives', async () => {
    // Structural, not timed: count event-loop turns (setImmediate) until the key arrives. Inline, the derivation
    // would give the loop at most one turn per 64Ki-round batch (8 for 2^19); in the worker it turns throughout.
    let turns = 0;
    let done = false;
    const ticking = (async () => {
      while (!done) {
        await new Promise((r) => setImmediate(r));
        turns++;
      }
    })();
    const ring = new KeyRing(['loop'], keys);
    const enc = {
      scheme: '7z-aes256' as const,
      salt: randomBytes(16).toString('hex'),
      iv: '00'.repeat(16),
      kdfLog2: 19,
    };
    const cipher = await ring.cipherFor(enc, 'x.mkv', async () => true);
    done = true;
    await ticking;
    assert.equal(cipher.key, deriveSevenZipKey('loop', enc.salt, 19));
    assert.ok(turns > 64, `the event loop turned ${turns} times during the derivation`);
  });

  it('a key asked again for the same password, salt and rounds is not derived again', async () => {
    const salt = randomBytes(16).toString('hex');
    const before = pool.completed;
    const [a, b] = await Promise.all([keys('again', salt, 12), keys('again', salt, 12)]);
    const c = await keys('again', salt, 12);
    assert.equal(a, b);
    assert.equal(a, c);
    assert.equal(pool.completed - before, 1);
    await keys('again', salt, 13);
    assert.equal(pool.completed - before, 2);
  });
});
