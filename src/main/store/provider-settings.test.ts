import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PROVIDER_SETTINGS,
  JsonFileSettingsStore,
  SETTINGS_FILE,
  type ProviderSettings,
} from './provider-settings';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-settings-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ollama: ProviderSettings = {
  baseUrl: 'http://127.0.0.1:11434/v1',
  model: 'qwen2.5-coder:7b',
  presetId: 'ollama',
};

describe('JsonFileSettingsStore', () => {
  it('gives the defaults when nothing is stored, and round-trips a saved value', async () => {
    const store = new JsonFileSettingsStore(dir);
    await expect(store.load()).resolves.toEqual(DEFAULT_PROVIDER_SETTINGS);
    await store.save(ollama);
    await expect(new JsonFileSettingsStore(dir).load()).resolves.toEqual(ollama);
    const onDisk = JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(onDisk).toEqual({ version: 3, provider: ollama });
    const withKey = { ...ollama, keyOrigin: 'http://127.0.0.1:11434' };
    await store.save(withKey);
    await expect(store.load()).resolves.toEqual(withKey);
  });

  it('reads a version 1 file, and keeps timeouts from version 2', async () => {
    await writeFile(join(dir, SETTINGS_FILE), JSON.stringify({ version: 1, provider: ollama }));
    const store = new JsonFileSettingsStore(dir);
    await expect(store.load()).resolves.toEqual(ollama);
    const timeouts = { connectSeconds: 10, idleSeconds: 20, requestSeconds: 30 };
    await store.save({ ...ollama, timeouts });
    await expect(new JsonFileSettingsStore(dir).load()).resolves.toEqual({ ...ollama, timeouts });
  });

  it('reads a version 2 file, and keeps per-model settings from version 3', async () => {
    const timeouts = { connectSeconds: 10, idleSeconds: 20, requestSeconds: 30 };
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ version: 2, provider: { ...ollama, timeouts } }),
    );
    const store = new JsonFileSettingsStore(dir);
    await expect(store.load()).resolves.toEqual({ ...ollama, timeouts });
    const models = {
      'qwen2.5-coder:32b': { contextTokens: 8192 },
      'gpt-4o': {
        prices: { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 },
      },
    };
    await store.save({ ...ollama, timeouts, models });
    await expect(new JsonFileSettingsStore(dir).load()).resolves.toEqual({
      ...ollama,
      timeouts,
      models,
    });
  });

  it.each([
    ['a window below 2,048 tokens', { m: { contextTokens: 100 } }],
    ['a price below zero', { m: { prices: { inputPerMillion: -1, outputPerMillion: 1 } } }],
    ['an unknown field', { m: { discount: 0.5 } }],
  ])('refuses per-model settings with %s', async (_case, models) => {
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ version: 3, provider: { ...ollama, models } }),
    );
    await expect(new JsonFileSettingsStore(dir).load()).rejects.toThrow(
      /not a valid settings file at provider\.models/,
    );
  });

  it('writes atomically: concurrent saves leave one whole value and no temp files', async () => {
    const store = new JsonFileSettingsStore(dir);
    const values = Array.from({ length: 20 }, (_, i) => ({ ...ollama, model: `model-${i}` }));
    await Promise.all(values.map((v) => store.save(v)));
    expect(await readdir(dir)).toEqual([SETTINGS_FILE]);
    // Saves are serialised in call order, so the last call wins.
    await expect(store.load()).resolves.toEqual(values.at(-1));
  });

  it('refuses to save an invalid value and leaves the stored one alone', async () => {
    const store = new JsonFileSettingsStore(dir);
    await store.save(ollama);
    await expect(store.save({ ...ollama, baseUrl: 'ftp://example.com' })).rejects.toThrow(
      /http:\/\/ or https:\/\//,
    );
    await expect(store.load()).resolves.toEqual(ollama);
  });

  it('reads an empty object (what electron-store leaves when nothing was saved) as the defaults', async () => {
    await writeFile(join(dir, SETTINGS_FILE), '{}');
    await expect(new JsonFileSettingsStore(dir).load()).resolves.toEqual(DEFAULT_PROVIDER_SETTINGS);
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '{"version": 1, "provider": {', /is not valid JSON .*does not reset/],
    ['no version', JSON.stringify({ provider: ollama }), /not a valid settings file at version/],
    [
      'a base URL that is not http(s)',
      JSON.stringify({ version: 1, provider: { ...ollama, baseUrl: 'file:///etc/passwd' } }),
      /at provider\.baseUrl: the base URL must be an http/,
    ],
    [
      'an unknown preset',
      JSON.stringify({ version: 1, provider: { ...ollama, presetId: 'acme' } }),
      /at provider\.presetId/,
    ],
    [
      'an unexpected field (say, a key written by hand)',
      JSON.stringify({ version: 1, provider: { ...ollama, apiKey: 'sk-x' } }),
      /not a valid settings file at provider/,
    ],
    [
      'a newer version',
      JSON.stringify({ version: 7, provider: ollama }),
      /written by a newer Tandem \(settings version 7; this one reads 3\)/,
    ],
  ])('a file with %s is a clear error, not a silent reset', async (_name, text, message) => {
    const file = join(dir, SETTINGS_FILE);
    await writeFile(file, text);
    const store = new JsonFileSettingsStore(dir);
    await expect(store.load()).rejects.toThrow(message);
    await expect(store.load()).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
