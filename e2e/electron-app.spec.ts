// The real Electron app, where the Electron binary is installed. Here (installed with
// ELECTRON_SKIP_BINARY_DOWNLOAD) it is skipped, and says so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TANDEM_INVOKE_METHODS } from '../src/shared/api';
import { ELECTRON_SKIP_REASON, findElectronBinary } from './support/electron-binary';

const electronPath = findElectronBinary();
if (!electronPath) console.warn(`e2e/electron-app.spec.ts: ${ELECTRON_SKIP_REASON}`);

const repoRoot = resolve(__dirname, '..');

describe('the Electron app', () => {
  it.skipIf(!electronPath)(
    'opens one hardened window that exposes exactly window.tandem',
    async () => {
      const userData = await mkdtemp(join(tmpdir(), 'tandem-electron-'));
      // Chromium refuses its own sandbox as root (CI containers) without this switch.
      const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
      // The built page, not a dev server; all state in a temp folder.
      const env: Record<string, string> = { TANDEM_USER_DATA_DIR: userData };
      for (const [key, value] of Object.entries(process.env)) {
        if (value !== undefined && key !== 'ELECTRON_RENDERER_URL') env[key] ??= value;
      }
      const app = await electron.launch({
        executablePath: electronPath ?? undefined,
        args: [...rootArgs, join(repoRoot, 'out/main/index.js')],
        cwd: repoRoot,
        env,
      });
      try {
        const page = await app.firstWindow();
        await page.getByRole('button', { name: 'Choose a folder' }).waitFor();
        expect(await page.title()).toBe('Tandem');

        const surface = await page.evaluate(() => ({
          keys: Object.keys(window.tandem).sort(),
          hasRequire: 'require' in window,
          hasProcess: 'process' in window,
        }));
        expect(surface).toEqual({
          keys: [...TANDEM_INVOKE_METHODS, 'onEvent'].sort(),
          hasRequire: false,
          hasProcess: false,
        });
        expect(await page.evaluate(() => window.tandem.ping('x'))).toBe('pong: x');
        const invalid = await page.evaluate(() =>
          window.tandem.openFolder(42 as unknown as string).then(
            () => 'resolved',
            (e: Error) => e.message,
          ),
        );
        expect(invalid).toContain('tandem.openFolder was called with invalid arguments');

        // Neither window.open nor navigation gets anywhere: no new window, same page.
        // (file: URLs, because http(s) ones would be handed to the system browser.)
        await page.evaluate(() => {
          window.open('file:///');
          window.location.href = 'file:///';
        });
        await page.waitForTimeout(300);
        expect(app.windows()).toHaveLength(1);
        expect(page.url()).toMatch(/^file:.*\/out\/renderer\/index\.html$/);
      } finally {
        await app.close();
        await rm(userData, { recursive: true, force: true });
      }
    },
  );
});
