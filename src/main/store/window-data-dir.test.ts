// The CLI finds the window's settings where Electron keeps them, and reads what the window's own
// settings store (electron-store) wrote there.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonFileSettingsStore, type ProviderSettings } from './provider-settings';
import { WINDOW_APP_NAME, windowDataDir } from './window-data-dir';

// electron-store asks Electron for userData; here Electron's rule (appData + app name) answers.
const electronPaths = vi.hoisted(() => ({ userData: '' }));
vi.mock('electron', () => ({
  default: {
    app: {
      getPath: (name: string) => {
        if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
        return electronPaths.userData;
      },
      getVersion: () => '0.1.0',
    },
    ipcMain: { on: () => undefined },
    shell: {},
  },
}));

describe('windowDataDir', () => {
  it.each([
    {
      platform: 'linux' as const,
      env: {},
      home: '/home/ann',
      dir: '/home/ann/.config/tandem',
    },
    {
      platform: 'linux' as const,
      env: { XDG_CONFIG_HOME: '/srv/conf' },
      home: '/home/ann',
      dir: '/srv/conf/tandem',
    },
    {
      platform: 'linux' as const,
      env: { XDG_CONFIG_HOME: 'relative/conf' },
      home: '/home/ann',
      dir: '/home/ann/.config/tandem',
    },
    {
      platform: 'darwin' as const,
      env: { XDG_CONFIG_HOME: '/ignored' },
      home: '/Users/ann',
      dir: '/Users/ann/Library/Application Support/tandem',
    },
    {
      platform: 'win32' as const,
      env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
      home: 'C:\\Users\\ann',
      dir: 'C:\\Users\\ann\\AppData\\Roaming\\tandem',
    },
    {
      platform: 'win32' as const,
      env: {},
      home: 'C:\\Users\\ann',
      dir: 'C:\\Users\\ann\\AppData\\Roaming\\tandem',
    },
    {
      platform: 'linux' as const,
      env: { TANDEM_USER_DATA_DIR: '/data/t', XDG_CONFIG_HOME: '/srv/conf' },
      home: '/home/ann',
      dir: '/data/t',
    },
  ])('$platform with $env → $dir', ({ platform, env, home, dir }) => {
    expect(windowDataDir({ platform, env, home })).toBe(dir);
  });

  it("uses Electron's app name for Tandem: package.json's productName, else its name", async () => {
    const pkg = JSON.parse(await readFile(resolve(__dirname, '../../../package.json'), 'utf8')) as {
      name: string;
      productName?: string;
    };
    expect(WINDOW_APP_NAME).toBe(pkg.productName ?? pkg.name);
  });
});

describe("the window's settings, read without Electron", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tandem-window-settings-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads what the electron-store adapter wrote, at the path the CLI computes', async () => {
    const env = { XDG_CONFIG_HOME: join(root, 'config') };
    // Electron's own rule on Linux, independent of windowDataDir: $XDG_CONFIG_HOME/<app name>.
    electronPaths.userData = join(env.XDG_CONFIG_HOME, WINDOW_APP_NAME);
    const { createElectronSettingsStore } = await import('./electron-settings-store');
    const stored: ProviderSettings = {
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5-coder:7b',
      presetId: 'ollama',
    };
    await createElectronSettingsStore().save(stored);

    const dir = windowDataDir({ platform: 'linux', env, home: join(root, 'home') });
    expect(dir).toBe(electronPaths.userData);
    await expect(new JsonFileSettingsStore(dir).load()).resolves.toEqual(stored);
  });
});
