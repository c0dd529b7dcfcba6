import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONNECT_FAILED_MESSAGE,
  TIMEOUT_STATUS,
  WebdavError,
  connectFailureMessage,
  messageForStatus,
  shouldRetryListing,
} from './webdavErrors';
import { hrefToPath, normalizePath, webdavUrl } from './webdav';

test('status texts of docs/console-contract.md §8', () => {
  assert.equal(messageForStatus(0, 'list'), 'Network error during list: Unable to connect to WebDAV server');
  assert.equal(messageForStatus(TIMEOUT_STATUS, 'list'), 'Timeout error: Request took too long');
  assert.equal(messageForStatus(401, 'list'), 'Unauthorized: Authentication required');
  assert.equal(messageForStatus(403, 'delete'), 'Forbidden: Access denied');
  assert.equal(messageForStatus(404, 'stat'), 'Not Found: Path does not exist');
  assert.equal(messageForStatus(500, 'list'), 'Server Error');
  assert.equal(messageForStatus(502, 'list'), 'Bad Gateway: WebDAV server unavailable');
  assert.equal(messageForStatus(503, 'list'), 'Service Unavailable: WebDAV server overloaded');
  assert.equal(messageForStatus(418, 'list', "I'm a teapot"), "HTTP 418: I'm a teapot");
});

test('listing retry: never on the listed statuses, otherwise at most once', () => {
  for (const status of [400, 401, 403, 404, 500, 502, 503, 504]) {
    assert.equal(shouldRetryListing(0, new WebdavError(status, 'list', 'x')), false, String(status));
  }
  for (const status of [0, TIMEOUT_STATUS, 409, 507]) {
    const err = new WebdavError(status, 'list', 'x');
    assert.equal(shouldRetryListing(0, err), true, String(status));
    assert.equal(shouldRetryListing(1, err), false, String(status));
  }
});

test('connection failure lines: auth problems get the connect text, others their own', () => {
  assert.equal(
    connectFailureMessage(new WebdavError(401, 'list', 'Unauthorized: Authentication required')),
    CONNECT_FAILED_MESSAGE,
  );
  assert.equal(
    connectFailureMessage(new WebdavError(502, 'list', 'Bad Gateway: WebDAV server unavailable')),
    'Bad Gateway: WebDAV server unavailable',
  );
  assert.equal(connectFailureMessage('odd'), CONNECT_FAILED_MESSAGE);
});

test('paths and hrefs: segments encoded, decoded back, trailing slashes dropped', () => {
  assert.equal(webdavUrl('/'), '/webdav/');
  assert.equal(webdavUrl('/complete/My Film #1/a%b.mkv'), '/webdav/complete/My%20Film%20%231/a%25b.mkv');
  assert.equal(hrefToPath('/webdav/complete/My%20Film%20%231/'), '/complete/My Film #1');
  assert.equal(hrefToPath('http://host:8080/webdav/'), '/');
  assert.equal(hrefToPath('/webdav'), '/');
  assert.equal(normalizePath('//a//b/'), '/a/b');
});
