// The open session: the live trace, the active run and the person's actions on it.
import { create } from 'zustand';
import type { RevertOutcome, SessionTrace } from '../../../shared/api';
import type { RunEvent } from '../../../shared/events';
import type { ApprovalAnswer, EditedArgs } from '../../../shared/tool-types';
import { errorMessage } from '../error-message';
import { createFrameBatcher } from './frame-batcher';
import { applySessionEvents, type SessionEvent } from './session-events';
import { EMPTY_TRACE, type TraceState } from './trace-model';
import { applyRunEvents } from './trace-reducer';

/** An undo asked for from a card: in flight, or what main answered. */
export type RevertState =
  { readonly status: 'pending' } | { readonly status: 'done'; readonly outcome: RevertOutcome };

interface SessionStore extends TraceState {
  readonly sessionId: string | null;
  /** The session's title as the sidebar shows it (null for a new session). */
  readonly title: string | null;
  readonly sending: boolean;
  /** A compaction the person asked for is under way. */
  readonly compacting: boolean;
  /** Why the last action failed (start, stop, answer), shown above the composer. */
  readonly actionError: string | null;
  /** Undo outcomes per call (`call:<id>`) and per run (`run:<id>`). */
  readonly reverts: Readonly<Record<string, RevertState>>;
  /** Cards the person opened or closed (by call id); the rest follow their default. */
  readonly expanded: Readonly<Record<string, boolean>>;
  /** Takes a run event from main; the trace shows what arrived once a frame. */
  receive(sessionId: string, event: RunEvent): void;
  /** Shows a past session's whole trace (from the sessions sidebar). */
  showTrace(trace: SessionTrace): void;
  startRun(task: string): Promise<boolean>;
  stopRun(): Promise<void>;
  stopCall(callId: string): Promise<void>;
  /** Summarises the older part of the session now; a refusal shows as the action error. */
  compact(): Promise<void>;
  answer(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<boolean>;
  /** Allows a call once as the person edited it; false (with the reason shown) when refused. */
  answerEdited(requestId: string, argsHash: string, edited: EditedArgs): Promise<boolean>;
  revertCall(callId: string): Promise<void>;
  revertRun(runId: string): Promise<void>;
  setExpanded(callId: string, open: boolean): void;
  reset(): void;
  dismissError(): void;
}

const FRESH = {
  ...EMPTY_TRACE,
  sessionId: null,
  title: null,
  actionError: null,
  reverts: {},
  expanded: {},
} as const;

export const useSessionStore = create<SessionStore>((set, get) => {
  // Events are folded and drawn once a frame, not once per IPC message.
  const arrived = createFrameBatcher<SessionEvent>((entries) =>
    set((state) => applySessionEvents(state, entries, Date.now())),
  );

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
    ...FRESH,
    sending: false,
    compacting: false,
    receive(sessionId, event) {
      arrived.push({ sessionId, event });
    },
    showTrace(trace) {
      arrived.drop();
      const folded = applyRunEvents(EMPTY_TRACE, trace.events, Date.now());
      // A reopened session has no run going (a crash left at most an unfinished record).
      set({
        ...FRESH,
        ...folded,
        activeRunId: null,
        sessionId: trace.sessionId,
        title: trace.title,
      });
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
    async stopCall(callId) {
      try {
        await window.tandem.stopCall(callId);
      } catch (error) {
        set({ actionError: errorMessage(error) });
      }
    },
    async answer(requestId, argsHash, answer) {
      try {
        await window.tandem.answerApproval(requestId, argsHash, answer);
        return true;
      } catch (error) {
        set({ actionError: errorMessage(error) });
        return false;
      }
    },
    async answerEdited(requestId, argsHash, edited) {
      try {
        await window.tandem.answerEdited(requestId, argsHash, edited);
        return true;
      } catch (error) {
        set({ actionError: errorMessage(error) });
        return false;
      }
    },
    revertCall: (callId) => revert(`call:${callId}`, () => window.tandem.revertCall(callId)),
    revertRun: (runId) => revert(`run:${runId}`, () => window.tandem.revertRun(runId)),
    setExpanded: (callId, open) =>
      set((state) => ({ expanded: { ...state.expanded, [callId]: open } })),
    reset() {
      arrived.drop();
      set({ ...FRESH });
    },
    dismissError: () => set({ actionError: null }),
  };
});
