// The open session: the live trace, the active run and the person's actions on it.
import { create } from 'zustand';
import type { RevertOutcome } from '../../../shared/api';
import type { RunEvent } from '../../../shared/events';
import type { ApprovalAnswer } from '../../../shared/tool-types';
import { errorMessage } from '../error-message';
import { EMPTY_TRACE, type TraceState } from './trace-model';
import { applyRunEvent } from './trace-reducer';

/** An undo asked for from a card: in flight, or what main answered. */
export type RevertState =
  { readonly status: 'pending' } | { readonly status: 'done'; readonly outcome: RevertOutcome };

interface SessionStore extends TraceState {
  readonly sessionId: string | null;
  readonly sending: boolean;
  /** A compaction the person asked for is under way. */
  readonly compacting: boolean;
  /** Why the last action failed (start, stop, answer), shown above the composer. */
  readonly actionError: string | null;
  /** Undo outcomes per call (`call:<id>`) and per run (`run:<id>`). */
  readonly reverts: Readonly<Record<string, RevertState>>;
  apply(sessionId: string, event: RunEvent): void;
  startRun(task: string): Promise<boolean>;
  stopRun(): Promise<void>;
  compact(): Promise<void>;
  answer(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void>;
  revertCall(callId: string): Promise<void>;
  revertRun(runId: string): Promise<void>;
  reset(): void;
  dismissError(): void;
}

export const useSessionStore = create<SessionStore>((set, get) => {
  async function revert(key: string, run: () => Promise<RevertOutcome>): Promise<void> {
    if (get().reverts[key]?.status === 'pending') return;
    set((state) => ({ reverts: { ...state.reverts, [key]: { status: 'pending' } } }));
    let outcome: RevertOutcome;
    try {
      outcome = await run();
    } catch (error) {
      outcome = { ok: false, message: errorMessage(error), files: [] };
    }
    set((state) => ({ reverts: { ...state.reverts, [key]: { status: 'done', outcome } } }));
  }

  return {
    ...EMPTY_TRACE,
    sessionId: null,
    sending: false,
    compacting: false,
    actionError: null,
    reverts: {},
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
    async compact() {
      if (get().compacting) return;
      set({ compacting: true, actionError: null });
      try {
        // Success shows as the compaction notice in the trace; a refusal says why here.
        const outcome = await window.tandem.compactSession();
        if (!outcome.ok) set({ actionError: outcome.message });
      } catch (error) {
        set({ actionError: errorMessage(error) });
      } finally {
        set({ compacting: false });
      }
    },
    async answer(requestId, argsHash, answer) {
      try {
        await window.tandem.answerApproval(requestId, argsHash, answer);
      } catch (error) {
        set({ actionError: errorMessage(error) });
      }
    },
    revertCall: (callId) => revert(`call:${callId}`, () => window.tandem.revertCall(callId)),
    revertRun: (runId) => revert(`run:${runId}`, () => window.tandem.revertRun(runId)),
    reset: () => set({ ...EMPTY_TRACE, sessionId: null, actionError: null, reverts: {} }),
    dismissError: () => set({ actionError: null }),
  };
});
