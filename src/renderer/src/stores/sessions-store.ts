// The sessions sidebar: the open folder's sessions, and opening, starting, renaming and deleting
// them. Opening one shows its whole trace (the session store folds its recorded events).
import { create } from 'zustand';
import type { SessionSummary } from '../../../shared/api';
import { errorMessage } from '../error-message';
import { useSessionStore } from './session-store';

interface SessionsStore {
  readonly sessions: readonly SessionSummary[] | null;
  readonly error: string | null;
  /** The session being opened (its trace is loading). */
  readonly opening: string | null;
  refresh(): Promise<void>;
  open(sessionId: string): Promise<void>;
  startNew(): Promise<void>;
  rename(sessionId: string, title: string): Promise<boolean>;
  remove(sessionId: string): Promise<void>;
  clear(): void;
  dismissError(): void;
}

export const useSessionsStore = create<SessionsStore>((set, get) => {
  async function act(action: () => Promise<void>): Promise<boolean> {
    set({ error: null });
    try {
      await action();
      return true;
    } catch (error) {
      set({ error: errorMessage(error) });
      return false;
    }
  }

  return {
    sessions: null,
    error: null,
    opening: null,
    async refresh() {
      await act(async () => set({ sessions: await window.tandem.listSessions() }));
    },
    async open(sessionId) {
      if (get().opening) return;
      set({ opening: sessionId });
      try {
        await act(async () => {
          const trace = await window.tandem.openSession(sessionId);
          useSessionStore.getState().showTrace(trace);
        });
      } finally {
        set({ opening: null });
      }
      await get().refresh();
    },
    async startNew() {
      const ok = await act(async () => {
        await window.tandem.newSession();
        useSessionStore.getState().reset();
      });
      if (ok) await get().refresh();
    },
    rename: (sessionId, title) =>
      act(async () => {
        set({ sessions: await window.tandem.renameSession(sessionId, title) });
        const session = useSessionStore.getState();
        if (session.sessionId === sessionId) useSessionStore.setState({ title });
      }),
    async remove(sessionId) {
      await act(async () => {
        const wasShown = useSessionStore.getState().sessionId === sessionId;
        set({ sessions: await window.tandem.deleteSession(sessionId) });
        if (wasShown) useSessionStore.getState().reset();
      });
    },
    clear: () => set({ sessions: null, error: null, opening: null }),
    dismissError: () => set({ error: null }),
  };
});
