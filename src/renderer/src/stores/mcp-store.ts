// MCP servers as the window shows them: the overview from main (states, tools, logs, the project's
// .mcp.json), refreshed when main says something changed, and the person's actions, each of which
// main may confirm in its own dialog first. The window decides nothing itself.
import { create } from 'zustand';
import type { McpOverview, McpServerChoices, McpServerInfo } from '../../../shared/mcp-types';
import { errorMessage } from '../error-message';

interface McpStore {
  readonly overview: McpOverview | null;
  readonly error: string | null;
  readonly busy: boolean;
  /** The person chose "Not now" for this .mcp.json content (by hash) in this window. */
  readonly dismissedHash: string | null;
  /** The acceptance dialog is open (from the banner or Settings). */
  readonly reviewing: boolean;
  load(): Promise<void>;
  addServers(json: string): Promise<boolean>;
  removeServer(name: string): Promise<void>;
  setChoices(server: McpServerInfo, choices: McpServerChoices): Promise<void>;
  acceptProject(hash: string): Promise<void>;
  revokeProject(): Promise<void>;
  restart(name: string): Promise<void>;
  allowServer(name: string, scope: 'session' | 'always'): Promise<void>;
  review(open: boolean): void;
  dismissProject(hash: string): void;
  dismissError(): void;
}

export const useMcpStore = create<McpStore>((set, get) => {
  let loading: Promise<void> | null = null;
  let again = false;
  /** The message a failed refresh showed: a later refresh that works takes it away. */
  let loadError: string | null = null;

  async function act(action: () => Promise<McpOverview>): Promise<boolean> {
    set({ busy: true, error: null });
    try {
      set({ overview: await action() });
      return true;
    } catch (error) {
      set({ error: errorMessage(error) });
      return false;
    } finally {
      set({ busy: false });
    }
  }

  return {
    overview: null,
    error: null,
    busy: false,
    dismissedHash: null,
    reviewing: false,
    load() {
      // One fetch at a time; a change during it fetches once more afterwards.
      if (loading) {
        again = true;
        return loading;
      }
      loading = (async () => {
        do {
          again = false;
          try {
            const overview = await window.tandem.getMcpOverview();
            const stale = loadError;
            loadError = null;
            // An action's error stays until dismissed; only a refresh's own failure is stale now.
            set((state) => ({ overview, error: state.error === stale ? null : state.error }));
          } catch (error) {
            loadError = errorMessage(error);
            set({ error: loadError });
          }
        } while (again);
        loading = null;
      })();
      return loading;
    },
    addServers: (json) => act(() => window.tandem.addMcpServers(json)),
    removeServer: async (name) => {
      await act(() => window.tandem.removeMcpServer(name));
    },
    setChoices: async (server, choices) => {
      const source = server.source;
      // Command-line servers take their choices from the command line only.
      if (source === 'cli') return;
      await act(() => window.tandem.setMcpServerChoices(source, server.name, choices));
    },
    acceptProject: async (hash) => {
      if (await act(() => window.tandem.acceptProjectMcp(hash))) set({ reviewing: false });
    },
    revokeProject: async () => {
      await act(() => window.tandem.revokeProjectMcp());
    },
    restart: async (name) => {
      await act(() => window.tandem.restartMcpServer(name));
    },
    allowServer: async (name, scope) => {
      await act(() => window.tandem.allowMcpServer(name, scope));
    },
    review: (open) => set({ reviewing: open, error: open ? get().error : null }),
    dismissProject: (hash) => set({ dismissedHash: hash, reviewing: false }),
    dismissError: () => set({ error: null }),
  };
});
