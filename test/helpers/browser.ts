import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs the `chromium` package when it is missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests keep their screenshots (ignored by git). */
export const ARTIFACTS_DIR = path.resolve(__dirname, '../../test-artifacts');

/**
 * Launches headless Chromium with the flags this machine needs: no sandbox (root), no GPU, and no
 * background networking, whose connections the closed network refuses.
 * @returns the browser; close it in `after`
 */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
