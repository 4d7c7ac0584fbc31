// Shared setup of the real-browser tests: Debian's chromium driven by playwright-core
// (headless, no sandbox, background networking off), the hotlines binary and fixtures, an
// artifacts folder for screenshots, and `hotlines ... --json` as the independent reference.
// Env: HOTLINES_BINARY, HOTLINES_FIXTURES, HOTLINES_ARTIFACTS (screenshots), CHROMIUM.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const binary = process.env.HOTLINES_BINARY || path.join(here, '../../build/hotlines');
export const fixtures = process.env.HOTLINES_FIXTURES || path.join(here, '../fixtures');
export const artifacts = process.env.HOTLINES_ARTIFACTS || path.join(here, '../../build/browser-artifacts');
export const javaShop = path.join(fixtures, 'java-shop');
export const fixture = (name) => path.join(javaShop, 'profiles', name);
fs.mkdirSync(artifacts, { recursive: true });

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `hotlines-${prefix}-`));
}

// Runs the CLI; returns stdout (stderr goes to the test's stderr).
export function hotlines(...args) {
  return execFileSync(binary, args, { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
}
export function hotlinesJson(...args) {
  return JSON.parse(hotlines(...args, '--json'));
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--no-first-run',
      '--enable-unsafe-swiftshader',
    ],
  });
}

// A page that fails the test on any script error or network request beyond file:// (and the
// navigations the test expects, which it collects itself).
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}
