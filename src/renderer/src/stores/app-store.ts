// Welcome-screen and workspace state: what main told us about the app, provider and folders.
import { create } from 'zustand';
import type { AppInfo, ProviderStatus, WorkspaceInfo } from '../../../shared/api';
import { errorMessage } from '../error-message';

interface AppStore {
  readonly info: AppInfo | null;
  readonly provider: ProviderStatus | null;
  readonly recent: readonly string[];
  readonly workspace: WorkspaceInfo | null;
  readonly busy: boolean;
  readonly error: string | null;
  /** The Settings view is shown over the welcome or session view. */
  readonly settingsOpen: boolean;
  load(): Promise<void>;
  refreshProvider(): Promise<void>;
  openSettings(): void;
  closeSettings(): void;
  chooseFolder(): Promise<void>;
  openFolder(folder: string): Promise<void>;
  setWorkspace(workspace: WorkspaceInfo | null): void;
  closeWorkspace(): void;
  dismissError(): void;
}

export const useAppStore = create<AppStore>((set, get) => {
  async function opening(open: () => Promise<WorkspaceInfo | null>): Promise<void> {
    if (get().busy) return;
    set({ busy: true, error: null });
    try {
      const workspace = await open();
      if (workspace) set({ workspace });
      set({ recent: await window.tandem.recentFolders() });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  }

  return {
    info: null,
    provider: null,
    recent: [],
    workspace: null,
    busy: false,
    error: null,
    settingsOpen: false,
    async load() {
      try {
        const [info, provider, recent] = await Promise.all([
          window.tandem.getAppInfo(),
          window.tandem.getProviderStatus(),
          window.tandem.recentFolders(),
        ]);
        set({ info, provider, recent });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async refreshProvider() {
      try {
        set({ provider: await window.tandem.getProviderStatus() });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    openSettings: () => set({ settingsOpen: true }),
    closeSettings: () => set({ settingsOpen: false }),
    chooseFolder: () => opening(() => window.tandem.chooseFolder()),
    openFolder: (folder) => opening(() => window.tandem.openFolder(folder)),
    setWorkspace: (workspace) => set({ workspace }),
    closeWorkspace: () => set({ workspace: null }),
    dismissError: () => set({ error: null }),
  };
});
