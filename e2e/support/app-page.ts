// One test page: the built renderer from the static server, with `window.tandem` from a bridge.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { bridgeClientScript } from './bridge-client';

export const RENDERER_DIR = resolve(__dirname, '../../out/renderer');
const ARTIFACTS_DIR = resolve(__dirname, '../artifacts');

export function requireBuiltRenderer(): void {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `The built renderer is missing (${RENDERER_DIR}). Run \`npm run build\` first ` +
        '(`npm run test:e2e` does it for you).',
    );
  }
}

export interface AppPage {
  readonly page: Page;
  /** Console errors and uncaught exceptions, including CSP violations. */
  readonly problems: string[];
}

/**
 * `initScripts` run in the page before the bridge defines `window.tandem` (the UI benchmark uses
 * this to watch the bridge's socket).
 */
export async function openAppPage(
  browser: Browser,
  appUrl: string,
  bridgeUrl: string,
  initScripts: readonly string[] = [],
): Promise<AppPage> {
  const context = await browser.newContext({
    viewport: { width: 1100, height: 720 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  for (const content of initScripts) await page.addInitScript({ content });
  await page.addInitScript({ content: bridgeClientScript(bridgeUrl) });
  await page.goto(appUrl);
  return { page, problems };
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, name);
  await page.screenshot({ path });
  return path;
}
