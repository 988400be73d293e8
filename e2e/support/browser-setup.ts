// What every window spec starts with: the built renderer over HTTP, Chromium, and a real temp
// folder holding an empty project folder. Each spec adds its own bridge (and model server).
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { requireBuiltRenderer, RENDERER_DIR } from './app-page';
import { launchChromium } from './chromium';
import { startStaticServer, type StaticServer } from './static-server';

export interface BrowserSetup {
  readonly browser: Browser;
  readonly web: StaticServer;
  /** The temp folder (symlinks resolved); removed by close(). */
  readonly root: string;
  /** `<root>/<projectName>`, created empty. */
  readonly project: string;
  close(): Promise<void>;
}

export async function startBrowserSetup(
  tempPrefix: string,
  projectName: string,
): Promise<BrowserSetup> {
  requireBuiltRenderer();
  const root = await realpath(await mkdtemp(join(tmpdir(), tempPrefix)));
  let browser: Browser | undefined;
  let web: StaticServer | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await web?.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const project = join(root, projectName);
    await mkdir(project);
    browser = await launchChromium();
    web = await startStaticServer(RENDERER_DIR);
    return { browser, web, root, project, close };
  } catch (error) {
    await close();
    throw error;
  }
}
