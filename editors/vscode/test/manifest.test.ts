// The extension manifest's security-relevant declarations: settings that name executables or
// native libraries are machine-scoped (a cloned repository's .vscode/settings.json cannot set
// them), and restricted (untrusted) workspaces are declared with those settings restricted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
const executables = ['hotlines.serverPath', 'hotlines.asyncProfiler.path'];

test('settings naming executables are machine-scoped', () => {
  const props = manifest.contributes.configuration.properties ?? manifest.contributes.configuration[0].properties;
  for (const key of executables) assert.equal(props[key]?.scope, 'machine', key);
});
test('untrusted workspaces are declared, with those settings restricted', () => {
  const u = manifest.capabilities?.untrustedWorkspaces;
  assert.ok(u, 'capabilities.untrustedWorkspaces');
  assert.equal(u.supported, 'limited');
  assert.deepEqual([...u.restrictedConfigurations].sort(), [...executables].sort());
});
