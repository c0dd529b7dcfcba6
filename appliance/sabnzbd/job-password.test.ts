import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitJobPassword } from './job-password.js';

test('a name written Name{{password}} gives the password and a clean name, with or without .nzb', () => {
  assert.deepEqual(splitJobPassword('Movie.2001{{s3cret}}'), { name: 'Movie.2001', password: 's3cret' });
  assert.deepEqual(splitJobPassword('Movie.2001{{s3cret}}.nzb'), { name: 'Movie.2001.nzb', password: 's3cret' });
  assert.deepEqual(splitJobPassword('Movie {{a}}b}}'), { name: 'Movie', password: 'a}}b' });
});

test('the password parameter wins; a name without braces or empty braces carries none', () => {
  assert.deepEqual(splitJobPassword('Movie{{inname}}', 'param'), { name: 'Movie', password: 'param' });
  assert.deepEqual(splitJobPassword('Movie.2001.nzb', 'param'), { name: 'Movie.2001.nzb', password: 'param' });
  assert.deepEqual(splitJobPassword('Movie.2001.nzb'), { name: 'Movie.2001.nzb' });
  assert.deepEqual(splitJobPassword('Movie{{}}'), { name: 'Movie' });
});
