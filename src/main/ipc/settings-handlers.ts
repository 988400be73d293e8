// Provider settings: base URL, model, preset, the write-only API key, the model list and the
// connection test. No method returns the key; every result is built field by field.
import type { ProviderStatus, SettingsInfo } from '../../shared/api';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../shared/provider-timeouts';
import { settingsOfModel } from '../../shared/model-settings';
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
  | 'setProviderTimeouts'
  | 'setModelSettings'
  | 'listModels'
  | 'testConnection'
> & {
  /** Feeds getProviderStatus. */
  providerStatus(): Promise<ProviderStatus>;
};

export function createSettingsHandlers(deps: SettingsHandlerDeps): SettingsHandlers {
  const load = () => loadProviderConfig(deps.settings, deps.secrets);

  // Each change reads the stored settings and writes them back. The window may send two at once
  // (a field's blur saves while "Save key" is clicked); run them one after another in arrival
  // order so neither overwrites the other with what it read before.
  let changes: Promise<unknown> = Promise.resolve();
  function exclusive<T>(change: () => Promise<T>): Promise<T> {
    const next = changes.then(change, change);
    changes = next.catch(() => undefined);
    return next;
  }

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
      timeouts: config.timeouts ?? DEFAULT_TIMEOUT_SETTINGS,
      modelSettings: settingsOfModel(config.models, config.model),
    };
  }

  return {
    getSettings: info,
    setProviderSettings: (input) =>
      exclusive(async () => {
        const stored = await deps.settings.load();
        // The key's origin is main's record, never the window's to set.
        await deps.settings.save({
          baseUrl: input.baseUrl,
          model: input.model,
          presetId: input.presetId,
          ...(stored.keyOrigin !== undefined ? { keyOrigin: stored.keyOrigin } : {}),
          ...(stored.timeouts !== undefined ? { timeouts: stored.timeouts } : {}),
          ...(stored.models !== undefined ? { models: stored.models } : {}),
        });
        return info();
      }),
    setModelSettings: (model, settings) =>
      exclusive(async () => {
        const stored = await deps.settings.load();
        const { [model]: _old, ...others } = stored.models ?? {};
        const empty = settings.contextTokens === undefined && settings.prices === undefined;
        const models = empty ? others : { ...others, [model]: settings };
        const { models: _all, ...rest } = stored;
        await deps.settings.save(Object.keys(models).length ? { ...rest, models } : rest);
        return info();
      }),
    setProviderTimeouts: (timeouts) =>
      exclusive(async () => {
        const stored = await deps.settings.load();
        await deps.settings.save({ ...stored, timeouts });
        return info();
      }),
    setApiKey: (key) =>
      exclusive(async () => {
        await storeApiKey(deps.settings, deps.secrets, key);
        return info();
      }),
    clearApiKey: () =>
      exclusive(async () => {
        await clearApiKey(deps.settings, deps.secrets);
        return info();
      }),
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
        ...(result.modelMissing ? { modelMissing: true } : {}),
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
