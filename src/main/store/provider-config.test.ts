import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearApiKey,
  loadProviderConfig,
  missingProviderSetting,
  storeApiKey,
} from './provider-config';
import { JsonFileSettingsStore } from './provider-settings';
import { MemorySecretStore } from './secret-store';

let dir: string;
let settings: JsonFileSettingsStore;
let secrets: MemorySecretStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-provider-config-'));
  settings = new JsonFileSettingsStore(dir);
  secrets = new MemorySecretStore();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('provider config', () => {
  it('binds the key to the origin it was entered for', async () => {
    await settings.save({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1',
      presetId: 'openai',
    });
    await storeApiKey(settings, secrets, 'sk-a');
    await expect(loadProviderConfig(settings, secrets)).resolves.toMatchObject({
      apiKey: 'sk-a',
      keyHeldFor: null,
      keyOrigin: 'https://api.openai.com',
    });
    expect(missingProviderSetting(await loadProviderConfig(settings, secrets))).toBeNull();

    await settings.save({
      ...(await settings.load()),
      baseUrl: 'https://openrouter.ai/api/v1',
      presetId: 'openrouter',
    });
    const moved = await loadProviderConfig(settings, secrets);
    expect(moved).toMatchObject({ apiKey: undefined, keyHeldFor: 'api.openai.com' });
    expect(missingProviderSetting(moved)).toBe(
      'OpenRouter needs an API key (the stored key belongs to api.openai.com and is not sent elsewhere): add one in Settings before starting a run.',
    );
  });

  it('does not send a key whose origin was never recorded', async () => {
    await settings.save({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm', presetId: 'vllm' });
    await secrets.set('sk-orphan');
    await expect(loadProviderConfig(settings, secrets)).resolves.toMatchObject({
      apiKey: undefined,
      keyHeldFor: 'an unknown server',
    });
  });

  it.each([
    ['no model', { model: '' }, 'Choose a model in Settings before starting a run.'],
    [
      'a keyless local server',
      { baseUrl: 'http://127.0.0.1:11434/v1', presetId: 'ollama' as const },
      null,
    ],
  ])('says what is missing: %s', async (_name, patch, expected) => {
    await settings.save({
      baseUrl: 'https://api.openai.com/v1',
      model: 'm',
      presetId: 'openai',
      ...patch,
    });
    expect(missingProviderSetting(await loadProviderConfig(settings, secrets))).toBe(expected);
  });

  it('clearing removes the key and its origin', async () => {
    await storeApiKey(settings, secrets, 'sk-a');
    await clearApiKey(settings, secrets);
    await expect(secrets.get()).resolves.toBeUndefined();
    expect((await settings.load()).keyOrigin).toBeUndefined();
  });
});
