// The Settings view's state: the provider form, the model list, the connection test and the open
// project's permissions. The API key is only ever sent, never received.
import { create } from 'zustand';
import type {
  ConnectionTestResult,
  NetworkSetting,
  PermissionsInfo,
  ProviderSettingsInput,
  SettingsInfo,
} from '../../../shared/api';
import {
  presetById,
  presetForBaseUrl,
  type ProviderPresetId,
} from '../../../shared/provider-presets';
import type { ModelSettings } from '../../../shared/model-settings';
import type { ProviderTimeoutSettings } from '../../../shared/provider-timeouts';
import type { PermissionMode } from '../../../shared/tool-types';
import { errorMessage } from '../error-message';
import { useAppStore } from './app-store';

type Busy = 'saving' | 'models' | 'testing' | 'key' | null;

interface SettingsStore {
  readonly settings: SettingsInfo | null;
  readonly form: ProviderSettingsInput;
  readonly models: readonly string[] | null;
  readonly test: ConnectionTestResult | null;
  readonly busy: Busy;
  readonly error: string | null;
  readonly permissions: PermissionsInfo | null;
  readonly permissionsError: string | null;
  load(): Promise<void>;
  pickPreset(id: ProviderPresetId): Promise<void>;
  editForm(patch: Partial<ProviderSettingsInput>): void;
  save(): Promise<boolean>;
  loadModels(): Promise<void>;
  testConnection(): Promise<void>;
  setApiKey(key: string): Promise<boolean>;
  clearApiKey(): Promise<void>;
  saveTimeouts(timeouts: ProviderTimeoutSettings): Promise<boolean>;
  saveModelSettings(model: string, settings: ModelSettings): Promise<boolean>;
  setMode(mode: PermissionMode): Promise<void>;
  setNetwork(setting: NetworkSetting): Promise<void>;
  deleteRule(id: string): Promise<void>;
  revokeGrant(id: string): Promise<void>;
  dismissError(): void;
}

const EMPTY_FORM: ProviderSettingsInput = { baseUrl: '', model: '', presetId: 'openai' };

function formOf(settings: SettingsInfo): ProviderSettingsInput {
  return { baseUrl: settings.baseUrl, model: settings.model, presetId: settings.presetId };
}

export const useSettingsStore = create<SettingsStore>((set, get) => {
  /** Runs one provider action; a failure becomes the section's error line. */
  async function act<T>(busy: Busy, action: () => Promise<T>): Promise<T | undefined> {
    set({ busy, error: null });
    try {
      return await action();
    } catch (error) {
      set({ error: errorMessage(error) });
      return undefined;
    } finally {
      set({ busy: null });
    }
  }

  function accept(settings: SettingsInfo): void {
    set({ settings, form: formOf(settings) });
    void useAppStore.getState().refreshProvider();
  }

  async function permissionsAction(action: () => Promise<PermissionsInfo>): Promise<void> {
    set({ permissionsError: null });
    try {
      set({ permissions: await action() });
    } catch (error) {
      set({ permissionsError: errorMessage(error) });
    }
  }

  async function save(): Promise<boolean> {
    const saved = await act('saving', () => window.tandem.setProviderSettings(get().form));
    if (saved) accept(saved);
    return saved !== undefined;
  }

  return {
    settings: null,
    form: EMPTY_FORM,
    models: null,
    test: null,
    busy: null,
    error: null,
    permissions: null,
    permissionsError: null,
    async load() {
      set({ settings: null, error: null, permissionsError: null, test: null, models: null });
      try {
        const settings = await window.tandem.getSettings();
        set({ settings, form: formOf(settings) });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
      try {
        set({ permissions: await window.tandem.getPermissions() });
      } catch (error) {
        set({ permissionsError: errorMessage(error) });
      }
    },
    async pickPreset(id) {
      const preset = presetById(id);
      const form = get().form;
      // Custom keeps whatever URL is there; a preset brings its own and a fresh model list.
      set({
        form: { ...form, presetId: id, baseUrl: preset.baseUrl || form.baseUrl },
        models: null,
        test: null,
      });
      if (preset.baseUrl) await save();
    },
    editForm(patch) {
      const form = { ...get().form, ...patch };
      if (patch.baseUrl !== undefined) {
        // Typing a URL that is not the preset's makes it Custom (and a preset's URL selects it).
        form.presetId = presetForBaseUrl(patch.baseUrl).id;
        set({ models: null });
      }
      set({ form, test: null });
    },
    save,
    async loadModels() {
      if (!(await save())) return;
      const models = await act('models', () => window.tandem.listModels());
      if (models) set({ models });
    },
    async testConnection() {
      set({ test: null });
      if (!(await save())) return;
      const test = await act('testing', () => window.tandem.testConnection());
      if (test) set({ test, ...(test.models ? { models: test.models } : {}) });
    },
    async setApiKey(key) {
      const saved = await act('key', () => window.tandem.setApiKey(key));
      if (saved) accept(saved);
      return saved !== undefined;
    },
    async clearApiKey() {
      const saved = await act('key', () => window.tandem.clearApiKey());
      if (saved) accept(saved);
    },
    async saveTimeouts(timeouts) {
      const saved = await act('saving', () => window.tandem.setProviderTimeouts(timeouts));
      if (saved) set({ settings: saved });
      return saved !== undefined;
    },
    async saveModelSettings(model, settings) {
      const saved = await act('saving', () => window.tandem.setModelSettings(model, settings));
      if (saved) set({ settings: saved });
      return saved !== undefined;
    },
    async setMode(mode) {
      set({ permissionsError: null });
      try {
        const workspace = await window.tandem.setMode(mode);
        useAppStore.getState().setWorkspace(workspace);
        const permissions = get().permissions;
        if (permissions) set({ permissions: { ...permissions, mode: workspace.mode } });
      } catch (error) {
        set({ permissionsError: errorMessage(error) });
      }
    },
    setNetwork: (setting) => permissionsAction(() => window.tandem.setNetwork(setting)),
    deleteRule: (id) => permissionsAction(() => window.tandem.deleteRule(id)),
    revokeGrant: (id) => permissionsAction(() => window.tandem.revokeGrant(id)),
    dismissError: () => set({ error: null, permissionsError: null }),
  };
});
