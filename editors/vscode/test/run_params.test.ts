// Settings added to the run params of a lens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attachParams, splitArgs, withBuildArgs } from '../src/run_params';

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
test('java-main runs get the build args too', () => {
  const main = { recipe: 'java-main', mainClass: 'org.acme.shop.Main', args: ['2'] };
  assert.deepEqual(withBuildArgs(main, ['-s', 's.xml']), { ...main, buildArgs: ['-s', 's.xml'] });
});

test('program arguments split like shell words, without expansion', () => {
  assert.deepEqual(splitArgs(''), []);
  assert.deepEqual(splitArgs('  2  '), ['2']);
  assert.deepEqual(splitArgs('a "b c" \'d "e"\' f\\ g'), ['a', 'b c', 'd "e"', 'f g']);
  assert.deepEqual(splitArgs('"" x'), ['', 'x']);
  assert.deepEqual(splitArgs('"a \\"q\\"" $HOME'), ['a "q"', '$HOME']);
  assert.equal(splitArgs('"open'), undefined);
  assert.equal(splitArgs("it's"), undefined);
});

test('attach durations: seconds to durationMs, nonsense refused', () => {
  assert.deepEqual(attachParams(4242, '10'), { recipe: 'attach-jvm', pid: 4242, durationMs: 10000 });
  assert.deepEqual(attachParams(7, ' 2.5 '), { recipe: 'attach-jvm', pid: 7, durationMs: 2500 });
  for (const bad of ['', ' ', '0', '-1', 'ten', '3601', 'NaN']) assert.equal(attachParams(1, bad), undefined, bad);
});
