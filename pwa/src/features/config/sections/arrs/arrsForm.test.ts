import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formFromConfig, modalComplete, newInstance, payloadOf, testInput, validationIssues } from './arrsForm';

const saved = formFromConfig({
  enabled: true,
  radarr_instances: [
    { name: 'Movies', type: 'radarr', url: 'http://radarr:7878', api_key_set: true, enabled: true, root_folder: '' },
  ],
  sonarr_instances: [],
});

test('new instances are Radarr and enabled; the modal needs name, URL and API key', () => {
  const d = newInstance();
  assert.equal(d.type, 'radarr');
  assert.equal(d.enabled, true);
  assert.equal(modalComplete(d), false);
  assert.equal(modalComplete({ ...d, name: 'a', url: 'http://x', api_key: '  ' }), false);
  assert.equal(modalComplete({ ...d, name: 'a', url: 'http://x', api_key: 'k' }), true);
});

test('validation texts, per type and position; unique names across both types; nothing while disabled', () => {
  assert.deepEqual(validationIssues(saved), []);
  const form = {
    ...saved,
    radarr_instances: [...saved.radarr_instances, { ...newInstance(), name: 'Movies', url: 'nope', api_key: 'k' }],
    sonarr_instances: [{ ...newInstance(), type: 'sonarr' as const }],
  };
  assert.deepEqual(validationIssues(form), [
    'Radarr instance #2: Invalid URL format',
    'Sonarr instance #1: Name is required',
    'Sonarr instance #1: URL is required',
    'Sonarr instance #1: API key is required',
    'Instance name "Movies" is used multiple times',
  ]);
  const crossType = {
    ...saved,
    sonarr_instances: [{ ...newInstance(), type: 'sonarr' as const, name: 'Movies', url: 'http://s', api_key: 'k' }],
  };
  assert.deepEqual(validationIssues(crossType), ['Instance name "Movies" is used multiple times']);
  assert.deepEqual(validationIssues({ ...form, enabled: false }), []);
});

test('payload: stored keys stay (sent empty), typed keys go, console-only fields are dropped', () => {
  const p = payloadOf({
    ...saved,
    sonarr_instances: [{ ...newInstance(), type: 'sonarr', name: ' Tv ', url: 'http://s/ ', api_key: ' k ' }],
  });
  assert.deepEqual(p, {
    enabled: true,
    radarr_instances: [
      { name: 'Movies', type: 'radarr', url: 'http://radarr:7878', api_key: '', enabled: true, root_folder: '' },
    ],
    sonarr_instances: [{ name: 'Tv', type: 'sonarr', url: 'http://s/', api_key: 'k', enabled: true, root_folder: '' }],
  });
});

test('test input: a typed key, else the saved name for the stored key, else nothing', () => {
  const inst = saved.radarr_instances[0]!;
  assert.deepEqual(testInput(inst), { type: 'radarr', url: 'http://radarr:7878', api_key: '', name: 'Movies' });
  assert.deepEqual(testInput({ ...inst, api_key: 'new' }), {
    type: 'radarr',
    url: 'http://radarr:7878',
    api_key: 'new',
  });
  assert.equal(testInput({ ...inst, url: ' ' }), undefined);
  assert.equal(testInput({ ...newInstance(), url: 'http://x' }), undefined);
});
