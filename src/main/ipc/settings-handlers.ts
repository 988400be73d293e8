// Provider settings: base URL, model, preset, the write-only API key, the model list and the
// connection test. No method returns the key; every result is built field by field.
import type { ProviderStatus, SettingsInfo } from '../../shared/api';
import { listModels, testConnection, type ProbeOptions } from '../agent/provider-probe';
import { clearApiKey, loadProviderConfig, storeApiKey } from '../store/provider-config';
import type { SettingsStore } from '../store/provider-settings';
import type { SecretStore } from '../store/secret-store';
import type { TandemHandlers } from './handler-types';

export interface SettingsHandlerDeps {
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly probe?: ProbeOptions;
}

export type SettingsHandlers = Pick<
  TandemHandlers,
  | 'getSettings'
  | 'setProviderSettings'
  | 'setApiKey'
  | 'clearApiKey'
  | 'listModels'
  | 'testConnection'
> & {
  /** Feeds getProviderStatus. */
  providerStatus(): Promise<ProviderStatus>;
};

export function createSettingsHandlers(deps: SettingsHandlerDeps): SettingsHandlers {
  const load = () => loadProviderConfig(deps.settings, deps.secrets);

  async function info(): Promise<SettingsInfo> {
    const config = await load();
    const storage = deps.secrets.describe();
    return {
      baseUrl: config.baseUrl,
      model: config.model,
      presetId: config.presetId,
      hasApiKey: config.apiKey !== undefined,
      needsApiKey: config.needsApiKey,
      keyHeldFor: config.keyHeldFor,
      keyStorage: { persistent: storage.persistent === true, note: String(storage.note) },
    };
  }

  return {
    getSettings: info,
    async setProviderSettings(input) {
      const stored = await deps.settings.load();
      // The key's origin is main's record, never the window's to set.
      await deps.settings.save({
        baseUrl: input.baseUrl,
        model: input.model,
        presetId: input.presetId,
        ...(stored.keyOrigin !== undefined ? { keyOrigin: stored.keyOrigin } : {}),
      });
      return info();
    },
    async setApiKey(key) {
      await storeApiKey(deps.settings, deps.secrets, key);
      return info();
    },
    async clearApiKey() {
      await clearApiKey(deps.settings, deps.secrets);
      return info();
    },
    async listModels() {
      const config = await load();
      return listModels(config.baseUrl, config.apiKey, deps.probe);
    },
    async testConnection() {
      const config = await load();
      const result = await testConnection(
        {
          baseUrl: config.baseUrl,
          apiKey: config.apiKey,
          model: config.model,
          needsApiKey: config.needsApiKey,
          providerLabel: config.preset.label,
        },
        deps.probe,
      );
      return {
        ok: result.ok,
        message: result.message,
        ...(result.models ? { models: [...result.models] } : {}),
      };
    },
    async providerStatus() {
      const config = await load();
      return {
        baseUrl: config.baseUrl,
        model: config.model,
        hasApiKey: config.apiKey !== undefined,
        needsApiKey: config.needsApiKey,
      };
    },
  };
}
