// The app's SettingsStore: the same versioned, validated value as the JSON file store, kept by
// electron-store in userData/settings.json (electron-store writes atomically).
import Store from 'electron-store';
import {
  DEFAULT_PROVIDER_SETTINGS,
  parseSettings,
  settingsFileValue,
  type ProviderSettings,
  type SettingsStore,
} from './provider-settings';

export function createElectronSettingsStore(): SettingsStore {
  let store: Store<Record<string, unknown>> | undefined;
  function open(): Store<Record<string, unknown>> {
    try {
      // clearInvalidConfig: false — a corrupt file is reported, never silently emptied.
      store ??= new Store<Record<string, unknown>>({ name: 'settings', clearInvalidConfig: false });
      return store;
    } catch (error) {
      throw new Error(
        `Tandem's settings file could not be read (${(error as Error).message}). ` +
          'Fix or delete it; Tandem does not reset your settings silently.',
      );
    }
  }

  return {
    async load(): Promise<ProviderSettings> {
      const current = open();
      if (current.size === 0) return DEFAULT_PROVIDER_SETTINGS;
      return parseSettings(current.store, current.path);
    },
    async save(settings) {
      open().store = settingsFileValue(settings);
    },
  };
}
