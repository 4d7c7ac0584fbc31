// Settings added to the run params of a lens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withBuildArgs } from '../src/run_params';

test('java-test runs get hotlines.runs.buildArgs after their own', () => {
  const run = { recipe: 'java-test', class: 'org.acme.shop.PricingTest', method: 'discountIsFinite', buildArgs: ['-q'] };
  assert.deepEqual(withBuildArgs(run, ['-s', '/w/settings.xml']).buildArgs, ['-q', '-s', '/w/settings.xml']);
  assert.deepEqual(withBuildArgs({ recipe: 'java-test' }, ['-o']).buildArgs, ['-o']);
  assert.deepEqual(run.buildArgs, ['-q'], 'the lens params are not modified');
});
test('other recipes and an empty setting are left alone', () => {
  const go = { recipe: 'go-test', test: 'TestWorkload' };
  assert.equal(withBuildArgs(go, ['-o']), go);
  const java = { recipe: 'java-test' };
  assert.equal(withBuildArgs(java, []), java);
});
