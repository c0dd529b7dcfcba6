import assert from 'node:assert/strict';
import { test } from 'node:test';
import { megabytes, timeLeft, toUnits } from './sabnzbd.format.js';
import { toSabXml } from './sabnzbd.xml.js';

test('sizes as SABnzbd prints them', () => {
  assert.equal(toUnits(1048576000, 'B'), '1000.0 MB');
  assert.equal(toUnits(1048576000), '1000.0 M');
  assert.equal(toUnits(500), '500 ');
  assert.equal(toUnits(2048, 'B'), '2 KB');
  assert.equal(toUnits(3 * 1024 ** 3, 'B'), '3.0 GB');
  assert.equal(megabytes(1048576000), '1000.00');
  assert.equal(megabytes(1277.65 * 1048576), '1277.65');
});

test('timeleft is H:MM:SS, hours past 23 allowed', () => {
  assert.equal(timeLeft(0), '0:00:00');
  assert.equal(timeLeft(100), '0:01:40');
  assert.equal(timeLeft(26 * 3600 + 3 * 60 + 4), '26:03:04');
  assert.equal(timeLeft(-5), '0:00:00');
});

test('xml: the one key is the root, lists hold singular elements, booleans True/False, text escaped', () => {
  assert.equal(toSabXml({ version: '4.5.1' }), '<?xml version="1.0" encoding="UTF-8" ?>\n<version>4.5.1</version>\n');
  const xml = toSabXml({ queue: { paused: false, slots: [{ nzo_id: 'a<b', cat: 'tv' }] } });
  assert.match(
    xml,
    /<queue><paused>False<\/paused><slots><slot><nzo_id>a&#60;b<\/nzo_id><cat>tv<\/cat><\/slot><\/slots><\/queue>/,
  );
  assert.match(
    toSabXml({ status: false, error: 'x\u0001y' }),
    /<result><status>False<\/status><error>xy<\/error><\/result>/,
  );
});
