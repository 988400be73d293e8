// Everything a provider client needs, read from the two stores in one place. The agent composition
// and the Settings handlers both use it, so "which key goes to which URL" is decided once.
import { presetById, type ProviderPreset } from '../../shared/provider-presets';
import { originOf, type ProviderSettings, type SettingsStore } from './provider-settings';
import type { SecretStore } from './secret-store';

export interface ProviderConfig extends ProviderSettings {
  readonly preset: ProviderPreset;
  /** The key to send to `baseUrl`; undefined when none is stored for its origin. Stays in main. */
  readonly apiKey: string | undefined;
  readonly needsApiKey: boolean;
  /** Host of a stored key that belongs to another origin (and so is not sent), else null. */
  readonly keyHeldFor: string | null;
}

export async function loadProviderConfig(
  settings: SettingsStore,
  secrets: SecretStore,
): Promise<ProviderConfig> {
  const [stored, key] = await Promise.all([settings.load(), secrets.get()]);
  const preset = presetById(stored.presetId);
  // A key without a recorded origin is treated as belonging elsewhere: never sent by guess.
  const matches = key !== undefined && stored.keyOrigin === originOf(stored.baseUrl);
  return {
    ...stored,
    preset,
    apiKey: matches ? key : undefined,
    needsApiKey: preset.needsApiKey,
    keyHeldFor: key !== undefined && !matches ? hostOf(stored.keyOrigin) : null,
  };
}

/** Stores the key for the current base URL's origin. */
export async function storeApiKey(
  settings: SettingsStore,
  secrets: SecretStore,
  key: string,
): Promise<void> {
  const stored = await settings.load();
  await secrets.set(key);
  await settings.save({ ...stored, keyOrigin: originOf(stored.baseUrl) });
}

export async function clearApiKey(settings: SettingsStore, secrets: SecretStore): Promise<void> {
  await secrets.clear();
  const { keyOrigin: _dropped, ...rest } = await settings.load();
  await settings.save(rest);
}

function hostOf(origin: string | undefined): string {
  if (origin === undefined) return 'an unknown server';
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** Null when a run can start; otherwise what the person must set first. */
export function missingProviderSetting(config: ProviderConfig): string | null {
  if (config.model === '') return 'Choose a model in Settings before starting a run.';
  if (config.needsApiKey && config.apiKey === undefined) {
    const held =
      config.keyHeldFor !== null
        ? ` (the stored key belongs to ${config.keyHeldFor} and is not sent elsewhere)`
        : '';
    return `${config.preset.label} needs an API key${held}: add one in Settings before starting a run.`;
  }
  return null;
}
