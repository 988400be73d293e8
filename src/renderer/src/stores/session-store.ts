// The open session: the live trace, the active run and the person's actions on it.
import { create } from 'zustand';
import type { RunEvent } from '../../../shared/events';
import type { ApprovalAnswer } from '../../../shared/tool-types';
import { errorMessage } from '../error-message';
import { EMPTY_TRACE, type TraceState } from './trace-model';
import { applyRunEvent } from './trace-reducer';

interface SessionStore extends TraceState {
  readonly sessionId: string | null;
  readonly sending: boolean;
  /** Why the last action failed (start, stop, answer), shown above the composer. */
  readonly actionError: string | null;
  apply(sessionId: string, event: RunEvent): void;
  startRun(task: string): Promise<boolean>;
  stopRun(): Promise<void>;
  answer(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void>;
  reset(): void;
  dismissError(): void;
}

export const useSessionStore = create<SessionStore>((set, get) => ({
  ...EMPTY_TRACE,
  sessionId: null,
  sending: false,
  actionError: null,
  apply(sessionId, event) {
    set((state) => ({ ...applyRunEvent(state, event), sessionId }));
  },
  async startRun(task) {
    set({ sending: true, actionError: null });
    try {
      const { runId, sessionId } = await window.tandem.startRun(task);
      // The run-started event usually arrives first; this covers a late one.
      set((state) => ({ sessionId, activeRunId: state.activeRunId ?? runId }));
      return true;
    } catch (error) {
      set({ actionError: errorMessage(error) });
      return false;
    } finally {
      set({ sending: false });
    }
  },
  async stopRun() {
    const runId = get().activeRunId;
    if (!runId) return;
    try {
      await window.tandem.stopRun(runId);
    } catch (error) {
      set({ actionError: errorMessage(error) });
    }
  },
  async answer(requestId, argsHash, answer) {
    try {
      await window.tandem.answerApproval(requestId, argsHash, answer);
    } catch (error) {
      set({ actionError: errorMessage(error) });
    }
  },
  reset: () => set({ ...EMPTY_TRACE, sessionId: null, actionError: null }),
  dismissError: () => set({ actionError: null }),
}));
