// Where the server binary is looked up: setting, PATH, the repository build.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findServer } from '../src/server_path';

test('the setting wins', () => {
  assert.equal(findServer('/opt/h/hotlines', '/usr/bin', '/r/editors/vscode', () => true), '/opt/h/hotlines');
});
test('then PATH, first hit', () => {
  const ok = new Set(['/b/hotlines', '/c/hotlines']);
  assert.equal(findServer('', '/a::/b:/c', '/r/editors/vscode', (p) => ok.has(p)), '/b/hotlines');
});
test('then the repository build, else nothing', () => {
  assert.equal(findServer('', '/a', '/r/editors/vscode', (p) => p === '/r/build/hotlines'), '/r/build/hotlines');
  assert.equal(findServer('', '/a', '/r/editors/vscode', () => false), undefined);
});
