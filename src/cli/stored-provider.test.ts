// `tandem run` without --base-url and --model uses the provider the window stored: written here
// through the window's own settings store (electron-store, with Electron's app paths answered
// by Electron's rule), read by the real CLI in a child process that has only the environment.
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderSettings } from '../main/store/provider-settings';
import { makeTempDir } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../test-support/scripted-openai-server';
import type { CliIo } from './cli-io';
import { main } from './index';

const electronPaths = vi.hoisted(() => ({ userData: '' }));
vi.mock('electron', () => ({
  default: {
    app: { getPath: () => electronPaths.userData, getVersion: () => '0.1.0' },
    ipcMain: { on: () => undefined },
    shell: {},
  },
}));

let root: string;
let env: NodeJS.ProcessEnv;
let server: ScriptedServer;

beforeEach(async () => {
  root = await makeTempDir('cli-stored');
  server = await startScriptedOpenAIServer({ turns: [{ text: 'hello from the stored model' }] });
  // Only what the child needs: no key, no stored settings of the person running the tests.
  env = {
    PATH: process.env.PATH,
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    TANDEM_HOME: join(root, 'data'),
  };
  await mkdir(join(root, 'project'));
  await mkdir(join(root, 'home'));
});
afterEach(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** Saves through the window's store, which electron-store keeps in Electron's userData. */
async function storeInWindow(settings: ProviderSettings): Promise<void> {
  // Electron on Linux: userData = $XDG_CONFIG_HOME/<package.json name>.
  electronPaths.userData = join(env.XDG_CONFIG_HOME ?? '', 'tandem');
  const { createElectronSettingsStore } = await import('../main/store/electron-settings-store');
  await createElectronSettingsStore().save(settings);
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function memoryIo(): { io: CliIo; stderr: () => string } {
  let err = '';
  return {
    io: {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (err += t) },
      stdin: new PassThrough(),
      stdinIsTTY: false,
      env,
      cwd: join(root, 'project'),
    },
    stderr: () => err,
  };
}

describe.runIf(process.platform === 'linux')("tandem run with the window's provider", () => {
  it('talks to the stored base URL and model when no flags name them', async () => {
    await storeInWindow({ baseUrl: server.baseUrl, model: 'stored-model', presetId: 'custom' });
    const result = await runCli(['run', '--folder', join(root, 'project'), 'say hi']);
    expect(result.stderr).toContain('stored-model at 127.0.0.1:');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello from the stored model\n');
    expect(server.chatBodies()[0]?.model).toBe('stored-model');
    // A custom (local) server needs no key: none was sent from the environment.
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key');
  });

  it('says plainly that the key must come from the environment for a hosted provider', async () => {
    await storeInWindow({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      presetId: 'openai',
      keyOrigin: 'https://api.openai.com',
    });
    const { io, stderr } = memoryIo();
    expect(await main(['run', 'say hi'], io)).toBe(3);
    expect(stderr()).toMatch(
      /^tandem run: missing API key: OpenAI needs one; set OPENAI_API_KEY .*sealed by the OS keychain/,
    );
    expect(stderr().trim().split('\n')).toHaveLength(1);
  });

  it('nothing stored and no flags: names the file it looked at', async () => {
    const { io, stderr } = memoryIo();
    expect(await main(['run', 'say hi'], io)).toBe(3);
    expect(stderr()).toContain(
      `no provider: give --base-url and --model, or choose a provider and model in the window's Settings (nothing is stored in ${join(root, 'config', 'tandem', 'settings.json')} yet)`,
    );
  });

  it('a --base-url other than the stored one needs its own --model', async () => {
    await storeInWindow({ baseUrl: server.baseUrl, model: 'stored-model', presetId: 'custom' });
    const { io, stderr } = memoryIo();
    expect(await main(['run', '--base-url', 'http://127.0.0.1:9/v1', 'x'], io)).toBe(2);
    expect(stderr()).toContain(`the model stored in the window is for ${server.baseUrl}`);
  });

  it('--model alone keeps the stored base URL', async () => {
    await storeInWindow({ baseUrl: server.baseUrl, model: 'stored-model', presetId: 'custom' });
    const { io } = memoryIo();
    expect(await main(['run', '--model', 'other-model', 'say hi'], io)).toBe(0);
    expect(server.chatBodies()[0]?.model).toBe('other-model');
  });

  it("uses the window's stored timeouts", async () => {
    const silent = await startScriptedOpenAIServer({ turns: () => ({ quiet: 'silent' }) });
    try {
      await storeInWindow({
        baseUrl: silent.baseUrl,
        model: 'stored-model',
        presetId: 'custom',
        timeouts: { connectSeconds: 1, idleSeconds: 300, requestSeconds: 3600 },
      });
      const quick = { TANDEM_RETRY_BASE_MS: '1' };
      const stored = memoryIo();
      const storedIo = { ...stored.io, env: { ...env, ...quick } };
      expect(await main(['run', 'say hi'], storedIo)).toBe(1);
      expect(stored.stderr()).toContain('did not start answering within 1 s (the connect timeout');
    } finally {
      await silent.close();
    }
  });
});
