import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateRegistration } from './validation';

const ok = { username: 'alice', email: '', password: 'correct horse', confirmPassword: 'correct horse' };

test('a complete registration has no errors; email is optional', () => {
  assert.deepEqual(validateRegistration(ok), {});
  assert.deepEqual(validateRegistration({ ...ok, email: 'alice@example.org' }), {});
});

test('every broken field gets the contract text at once', () => {
  const errors = validateRegistration({ username: 'al', email: 'nope', password: 'short', confirmPassword: 'other' });
  assert.deepEqual(errors, {
    username: 'Username must be at least 3 characters long',
    email: 'Email address is invalid',
    password: 'Password must be at least 8 characters long',
    confirmPassword: 'Passwords do not match',
  });
});

test('a username of blanks does not count as three characters', () => {
  assert.equal(
    validateRegistration({ ...ok, username: '   ' }).username,
    'Username must be at least 3 characters long',
  );
});
