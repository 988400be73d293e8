// Debian's Chromium, driven by playwright-core (DESIGN.md §7). A missing browser is a failure
// that says how to fix it, never a silent skip.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_MISSING_MESSAGE =
  'Chromium is not installed, and the window tests need it. Install it with: ' +
  'apt-get update && apt-get install -y chromium';

export function findChromium(): string {
  const fromEnv = process.env.TANDEM_CHROMIUM;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    if (found) return found;
  } catch {
    // Not on the PATH; try the Debian location below.
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error(CHROMIUM_MISSING_MESSAGE);
}

/** Headless, quiet, with a fresh temporary profile (Playwright's default for launch()). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}
