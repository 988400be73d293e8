// Which provider `tandem run` talks to: --base-url and --model when given, else what the window
// stored in its Settings (read from its settings file, without Electron). The key always comes
// from the environment: the window's key is sealed with the OS keychain through Electron's
// safeStorage, which a plain Node process cannot open.
import { existsSync } from 'node:fs';
import { isSendableApiKey } from '../shared/control-characters';
import { presetById, presetForBaseUrl, type ProviderPreset } from '../shared/provider-presets';
import type { ModelSettings } from '../shared/model-settings';
import type { ProviderTimeoutSettings } from '../shared/provider-timeouts';
import { JsonFileSettingsStore, type ProviderSettings } from '../main/store/provider-settings';
import { windowDataDir } from '../main/store/window-data-dir';
import { CliFailure, EXIT } from './cli-io';

export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

export interface ProviderChoice {
  readonly baseUrl: string;
  readonly model: string;
  readonly preset: ProviderPreset;
  /** From the environment; undefined when none is set (and none is needed, or asked for). */
  readonly apiKey: string | undefined;
  /** Where base URL and model came from, for the header and error messages. */
  readonly source: 'flags' | 'window';
  /** The window's stored timeouts, when the provider came from there and they were changed. */
  readonly timeouts?: ProviderTimeoutSettings;
  /** The model's window and prices as set in the window's Settings, when it came from there. */
  readonly modelSettings?: ModelSettings;
}

export interface ProviderChoiceInput {
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKeyEnv?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** False: a missing key is no error (the preview's Settings can take one). Default true. */
  readonly requireKey?: boolean;
}

/** The window's settings file (whether or not it exists yet). */
export function windowSettingsStore(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): JsonFileSettingsStore {
  return new JsonFileSettingsStore(
    windowDataDir({ platform, env, ...(env.HOME ? { home: env.HOME } : {}) }),
  );
}

export async function chooseProvider(input: ProviderChoiceInput): Promise<ProviderChoice> {
  const chosen =
    input.baseUrl !== undefined && input.model !== undefined
      ? {
          baseUrl: input.baseUrl,
          model: input.model,
          preset: presetForBaseUrl(input.baseUrl),
          source: 'flags' as const,
        }
      : await fromWindow(input);
  const keyEnv = input.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  // Surrounding whitespace (a line break from a file) is dropped, as the window does.
  const key = input.env[keyEnv]?.trim();
  // A space or control character inside cannot be sent as a header: said once, never retried as
  // a network fault, and the key itself is not shown.
  if (key && !isSendableApiKey(key)) {
    throw new CliFailure(
      `the API key in ${keyEnv} contains a space, a line break or another control character; check the variable`,
      EXIT.setup,
    );
  }
  const required = input.requireKey !== false;
  if (!key && required && (chosen.preset.needsApiKey || input.apiKeyEnv !== undefined)) {
    const needs = chosen.preset.needsApiKey ? `${chosen.preset.label} needs one; ` : '';
    throw new CliFailure(
      `missing API key: ${needs}set ${keyEnv} (or name another variable with --api-key-env). ` +
        'The key saved in the window is sealed by the OS keychain through Electron, so the CLI ' +
        'cannot read it; any value works for a local server without keys',
      EXIT.setup,
    );
  }
  return { ...chosen, apiKey: key || undefined };
}

async function loadWindowSettings(input: ProviderChoiceInput): Promise<{
  readonly file: string;
  readonly settings: ProviderSettings | null;
}> {
  const store = windowSettingsStore(input.env, input.platform);
  if (!existsSync(store.file)) return { file: store.file, settings: null };
  try {
    return { file: store.file, settings: await store.load() };
  } catch (error) {
    throw new CliFailure(
      `cannot read the window's settings: ${(error as Error).message.replace(/\s+/g, ' ')}`,
      EXIT.setup,
    );
  }
}

async function fromWindow(input: ProviderChoiceInput): Promise<Omit<ProviderChoice, 'apiKey'>> {
  const { file, settings } = await loadWindowSettings(input);
  if (!settings) {
    throw new CliFailure(
      `no provider: give --base-url and --model, or choose a provider and model in the window's Settings (nothing is stored in ${file} yet)`,
      EXIT.setup,
    );
  }
  const baseUrl = input.baseUrl ?? settings.baseUrl;
  if (input.model === undefined && !sameUrl(baseUrl, settings.baseUrl)) {
    throw new CliFailure(
      `--model is required with --base-url: the model stored in the window is for ${settings.baseUrl}`,
      EXIT.usage,
    );
  }
  const model = input.model ?? settings.model;
  if (model === '') {
    throw new CliFailure(
      `no model: give --model, or choose a model in the window's Settings (${file} has none)`,
      EXIT.setup,
    );
  }
  // A base URL given on the command line is judged by itself; the stored one by its preset.
  const preset = sameUrl(baseUrl, settings.baseUrl)
    ? presetById(settings.presetId)
    : presetForBaseUrl(baseUrl);
  return {
    baseUrl,
    model,
    preset,
    source: 'window',
    ...(settings.timeouts !== undefined ? { timeouts: settings.timeouts } : {}),
    ...(settings.models?.[model] ? { modelSettings: settings.models[model] } : {}),
  };
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string): string => u.trim().replace(/\/+$/, '');
  return norm(a) === norm(b);
}
