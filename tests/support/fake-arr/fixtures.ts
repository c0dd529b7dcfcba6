/**
 * What the repair tests set up around the fake arr: fakes that live for one test, and the config entry that points
 * Spool at a fake.
 */
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import type { ArrInstance } from '../../../appliance/config/index.js';
import { startFakeArr, type FakeArr, type FakeArrOptions } from './server.js';

/**
 * Fake arrs for one test at a time. Call once at the top of the file; it registers an `afterEach` hook that closes
 * every fake the test started, and fails the test when one saw a route it does not implement (the code under test
 * called something the real arr would answer differently).
 */
export function fakeArrPerTest(): (opts: FakeArrOptions) => Promise<FakeArr> {
  const arrs: FakeArr[] = [];
  afterEach(async () => {
    for (const a of arrs.splice(0)) {
      assert.deepEqual(a.unexpected, [], 'the fake saw a route it does not implement');
      await a.close();
    }
  });
  return async (opts) => {
    const a = await startFakeArr(opts);
    arrs.push(a);
    return a;
  };
}

/** An arrs.radarr_instances / sonarr_instances entry for the fake: its URL and key, enabled, named after its type. */
export function fakeArrInstance(a: FakeArr, over: Partial<ArrInstance> = {}): ArrInstance {
  return { name: a.type, type: a.type, url: a.url, api_key: a.apiKey, enabled: true, root_folder: '', ...over };
}
