import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TANDEM_INVOKE_METHODS, type TandemInvokeMethod } from '../../shared/api';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../../test-support/scripted-openai-server';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import { createHandlers, type TandemBackend } from './create-handlers';
import { createValidatedDispatcher, type InvokeDispatcher } from './validated-handlers';

const KEY = 'sk-live-7f3c9a1e5b2d4f6a8c0e';

let server: ScriptedServer;
let root: string;
let project: string;
let backend: TandemBackend;
let call: InvokeDispatcher;
let secrets: MemorySecretStore;

beforeAll(async () => {
  server = await startScriptedOpenAIServer({ turns: [], model: 'scripted-model' });
});
afterAll(() => server?.close());

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-settings-ipc-')));
  project = join(root, 'project');
  await mkdir(project);
  secrets = new MemorySecretStore();
  backend = createHandlers({
    appName: 'Tandem',
    appVersion: '0',
    dataDir: join(root, 'data'),
    chooseFolder: async () => project,
    confirm: async () => true,
    home: join(root, 'home'),
    sandboxState: () => ({ kind: 'bwrap', available: true, description: 'bubblewrap' }),
    settings: new JsonFileSettingsStore(join(root, 'data')),
    secrets,
    permissions: new JsonFilePermissionsStore(join(root, 'data')),
    grants: new GrantBook(),
    probe: { timeoutMs: 2000 },
  });
  // Through the same validation wrapper the window's calls pass.
  call = createValidatedDispatcher(backend.handlers);
});

afterEach(async () => {
  await backend.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('settings handlers', () => {
  it('starts from the OpenAI preset with no key, and says where a key would be kept', async () => {
    await expect(call('getSettings', [])).resolves.toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: '',
      presetId: 'openai',
      hasApiKey: false,
      needsApiKey: true,
      keyHeldFor: null,
      keyStorage: { persistent: false, note: expect.stringContaining('memory for this run only') },
      timeouts: { connectSeconds: 60, idleSeconds: 120, requestSeconds: 1200 },
      modelSettings: {},
    });
  });

  it("stores a model's window and prices, keeps them through provider changes, and removes them", async () => {
    const priced = {
      contextTokens: 16_000,
      prices: { inputPerMillion: 2.5, outputPerMillion: 10 },
    };
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
    ]);
    await expect(call('setModelSettings', ['scripted-model', priced])).resolves.toMatchObject({
      modelSettings: priced,
    });
    await call('setModelSettings', ['other-model', { contextTokens: 8192 }]);
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'other-model', presetId: 'custom' },
    ]);
    await expect(call('getSettings', [])).resolves.toMatchObject({
      modelSettings: { contextTokens: 8192 },
    });
    await call('setModelSettings', ['other-model', {}]);
    await expect(call('getSettings', [])).resolves.toMatchObject({ modelSettings: {} });
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
    ]);
    await expect(call('getSettings', [])).resolves.toMatchObject({ modelSettings: priced });
  });

  it("reads only a model's own settings, never what every object inherits", async () => {
    await call('setModelSettings', ['other-model', { contextTokens: 8192 }]);
    for (const model of ['constructor', 'toString', '__proto__']) {
      await call('setProviderSettings', [{ baseUrl: server.baseUrl, model, presetId: 'custom' }]);
      const info = await call('getSettings', []);
      // A function (Object, Object.prototype.toString) cannot cross to the window at all.
      expect(structuredClone(info)).toMatchObject({ model, modelSettings: {} });
    }
  });

  it('stores the provider timeouts, and a later provider change keeps them', async () => {
    const timeouts = { connectSeconds: 5, idleSeconds: 300, requestSeconds: 3600 };
    await expect(call('setProviderTimeouts', [timeouts])).resolves.toMatchObject({ timeouts });
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
    ]);
    await expect(call('getSettings', [])).resolves.toMatchObject({
      baseUrl: server.baseUrl,
      timeouts,
    });
    await expect(
      call('setProviderTimeouts', [{ connectSeconds: 0, idleSeconds: 1, requestSeconds: 1 }]),
    ).rejects.toThrow(/Connect timeout must be at least 1 s/);
    await expect(call('getSettings', [])).resolves.toMatchObject({ timeouts });
  });

  it('saves provider settings (trimmed) and reflects them in provider status', async () => {
    await call('setProviderSettings', [
      { baseUrl: ` ${server.baseUrl} `, model: ' scripted-model ', presetId: 'custom' },
    ]);
    await expect(call('getProviderStatus', [])).resolves.toEqual({
      baseUrl: server.baseUrl,
      model: 'scripted-model',
      hasApiKey: false,
      needsApiKey: false,
    });
  });

  it.each<[string, unknown, RegExp]>([
    [
      'a base URL that is not a URL',
      { baseUrl: 'localhost:11434', model: '', presetId: 'ollama' },
      /http:\/\/ or https:\/\//,
    ],
    [
      'a file: URL',
      { baseUrl: 'file:///etc/passwd', model: '', presetId: 'custom' },
      /http:\/\/ or https:\/\//,
    ],
    [
      'a javascript: URL',
      { baseUrl: 'javascript:alert(1)', model: '', presetId: 'custom' },
      /http:\/\/ or https:\/\//,
    ],
    ['an empty base URL', { baseUrl: '  ', model: '', presetId: 'custom' }, /base URL is empty/],
    [
      'an unknown preset',
      { baseUrl: 'https://x.test/v1', model: '', presetId: 'acme' },
      /argument 1 \(presetId\)/,
    ],
    [
      'an extra field',
      { baseUrl: 'https://x.test/v1', model: '', presetId: 'custom', apiKey: 'k' },
      /argument 1/,
    ],
    [
      'a model with a line break',
      { baseUrl: 'https://x.test/v1', model: 'a\nb', presetId: 'custom' },
      /control characters/,
    ],
  ])('refuses %s and keeps the stored settings', async (_name, input, message) => {
    await expect(call('setProviderSettings', [input])).rejects.toThrow(message);
    await expect(call('getSettings', [])).resolves.toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
    });
  });

  it.each<[string, unknown, RegExp]>([
    ['an empty key', '   ', /API key is empty/],
    ['a key with a space inside', 'sk-abc def', /spaces or line breaks/],
    ['a key with a line break', 'sk-abc\nrm -rf', /spaces or line breaks/],
    ['a number', 42, /expected string/],
  ])('refuses %s', async (_name, key, message) => {
    await expect(call('setApiKey', [key])).rejects.toThrow(message);
    await expect(secrets.get()).resolves.toBeUndefined();
  });

  it('lists models and tests the connection against the stored provider with the stored key', async () => {
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
    ]);
    await call('setApiKey', [`  ${KEY}  `]);
    await expect(secrets.get()).resolves.toBe(KEY);
    await expect(call('listModels', [])).resolves.toEqual(['scripted-model']);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    await expect(call('testConnection', [])).resolves.toMatchObject({
      ok: true,
      models: ['scripted-model'],
    });
  });

  it('sends the key only to the origin it was entered for', async () => {
    const other = await startScriptedOpenAIServer({ turns: [], model: 'other-model' });
    try {
      const at = (baseUrl: string) => ({ baseUrl, model: '', presetId: 'custom' });
      await call('setProviderSettings', [at(server.baseUrl)]);
      await call('setApiKey', [KEY]);
      // Another origin (say, a window that was tricked into changing the URL): the key stays home.
      const moved = await call('setProviderSettings', [at(other.baseUrl)]);
      expect(moved).toMatchObject({
        hasApiKey: false,
        keyHeldFor: new URL(server.baseUrl).host,
      });
      await expect(call('listModels', [])).resolves.toEqual(['other-model']);
      expect(JSON.stringify(other.requests)).not.toContain(KEY);
      expect(other.requests.at(-1)?.headers.authorization).toBe('Bearer no-key');
      // Another path on the same origin keeps it; so does coming back.
      await call('setProviderSettings', [at(`${server.baseUrl}/`)]);
      await expect(call('getSettings', [])).resolves.toMatchObject({
        hasApiKey: true,
        keyHeldFor: null,
      });
      await call('listModels', []);
      expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await other.close();
    }
  });

  it('applies changes sent together in order, without one undoing the other', async () => {
    // The window saves the URL on blur while "Save key" is clicked: both arrive at once.
    const saved = call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: '', presetId: 'custom' },
    ]);
    const keyed = call('setApiKey', [KEY]);
    await Promise.all([saved, keyed]);
    await expect(call('getSettings', [])).resolves.toMatchObject({
      baseUrl: server.baseUrl,
      hasApiKey: true,
      keyHeldFor: null,
    });
    await expect(call('listModels', [])).resolves.toEqual(['scripted-model']);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('explains a failed model list as an error with a message', async () => {
    await call('setProviderSettings', [
      { baseUrl: 'http://127.0.0.1:9/v1', model: '', presetId: 'custom' },
    ]);
    await expect(call('listModels', [])).rejects.toThrow(/Cannot reach 127\.0\.0\.1:9/);
    await expect(call('testConnection', [])).resolves.toEqual({
      ok: false,
      message: expect.stringMatching(/Cannot reach 127\.0\.0\.1:9/),
    });
  });

  it('never returns the key from any handler', async () => {
    await call('setProviderSettings', [
      { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
    ]);
    const returned: unknown[] = [await call('setApiKey', [KEY])];
    await call('chooseFolder', []);
    const argsFor: Partial<Record<TandemInvokeMethod, unknown[]>> = {
      ping: ['x'],
      openFolder: [project],
      setProviderSettings: [
        { baseUrl: server.baseUrl, model: 'scripted-model', presetId: 'custom' },
      ],
      setMode: ['read-only'],
      setNetwork: ['off'],
      setProviderTimeouts: [{ connectSeconds: 60, idleSeconds: 120, requestSeconds: 1200 }],
      setModelSettings: ['scripted-model', { contextTokens: 16_000 }],
    };
    // Every method that reads state, with the key stored (runs, key edits and deletions aside).
    const skip = new Set<TandemInvokeMethod>([
      'setApiKey',
      'clearApiKey',
      'startRun',
      'stopRun',
      'compactSession',
      'answerApproval',
      'previewAlwaysRule',
      'sendTerminalInput',
      'revertCall',
      'revertRun',
      'previewRevertRun',
      'stopCall',
      'answerEdited',
      'listSessions',
      'openSession',
      'newSession',
      'renameSession',
      'deleteSession',
      'sessionChanges',
      'revertFiles',
      'deleteRule',
      'revokeGrant',
      // MCP edits (getMcpOverview, which reads, is called).
      'addMcpServers',
      'removeMcpServer',
      'setMcpServerChoices',
      'acceptProjectMcp',
      'revokeProjectMcp',
      'restartMcpServer',
      'allowMcpServer',
    ]);
    for (const method of TANDEM_INVOKE_METHODS) {
      if (skip.has(method)) continue;
      returned.push(await call(method, argsFor[method] ?? []));
    }
    const everything = JSON.stringify(returned);
    expect(everything).toContain('scripted-model'); // the results are real, not empty
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(4, 20));
    // Failures must not carry it either.
    const failures = await Promise.all(
      (['startRun', 'deleteRule', 'revokeGrant'] as const).map((m) =>
        call(m, ['x']).then(
          () => '',
          (e: Error) => e.message,
        ),
      ),
    );
    expect(failures.join('\n')).not.toContain(KEY);
    const cleared = await call('clearApiKey', []);
    expect(cleared).toMatchObject({ hasApiKey: false });
    await expect(secrets.get()).resolves.toBeUndefined();
  });
});
