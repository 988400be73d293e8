// Runs: forwarded to the RunController of the open folder, created on first use.
import type { WorkspaceInfo } from '../../shared/api';
import type { AppEventHub } from './app-event-hub';
import type { TandemHandlers } from './handler-types';
import {
  FOLDER_CHANGED_MESSAGE,
  NO_PROVIDER_MESSAGE,
  type RunController,
  type RunControllerFactory,
  type RunMethod,
} from './run-controller';

export interface RunHandlers extends Pick<TandemHandlers, RunMethod> {
  /** The open folder changed: the old controller is disposed, a new one is made on demand. */
  workspaceChanged(workspace: WorkspaceInfo | null): Promise<void>;
  /** The open folder's controller, made if needed; null when runs cannot be made (no factory). */
  controller(): Promise<RunController | null>;
  /** The controller if one exists already (never makes one). */
  existing(): RunController | null;
  dispose(): Promise<void>;
}

export function createRunHandlers(
  hub: AppEventHub,
  factory: RunControllerFactory | undefined,
): RunHandlers {
  let workspace: WorkspaceInfo | null = null;
  let active: { controller: RunController; unsubscribe: () => void } | null = null;
  let pending: Promise<RunController> | null = null;
  // Bumped whenever the controller is released: a factory that resolves later is stale.
  let generation = 0;

  async function release(): Promise<void> {
    const current = active;
    active = null;
    pending = null;
    generation += 1;
    if (current) {
      // Dispose first: the stopped run's `approval-resolved` and `run-finished` still reach the
      // window; only then stop forwarding.
      try {
        await current.controller.dispose?.();
      } finally {
        current.unsubscribe();
      }
    }
  }

  function controller(): Promise<RunController> {
    if (!workspace) return Promise.reject(new Error('Open a folder before starting a run.'));
    if (!factory) return Promise.reject(new Error(NO_PROVIDER_MESSAGE));
    if (active) return Promise.resolve(active.controller);
    if (!pending) {
      const forGeneration = generation;
      const made = Promise.resolve(factory(workspace)).then(async (made) => {
        if (forGeneration !== generation) {
          // Another folder was opened while this one's controller was being made.
          await made.dispose?.();
          throw new Error(FOLDER_CHANGED_MESSAGE);
        }
        const unsubscribe = made.onEvent((sessionId, event) =>
          hub.emit({ type: 'run-event', sessionId, event }),
        );
        active = { controller: made, unsubscribe };
        return made;
      });
      pending = made;
      // A failed factory (say, no API key) must not stick: the next attempt tries again.
      made.catch(() => {
        if (pending === made) pending = null;
      });
    }
    return pending;
  }

  return {
    startRun: async (task) => (await controller()).startRun(task),
    stopRun: async (runId) => (await controller()).stopRun(runId),
    // Only an existing controller can have a running command.
    stopCall: async (callId) => (active ? active.controller.stopCall(callId) : false),
    compactSession: async () => (await controller()).compactSession(),
    answerApproval: async (requestId, argsHash, answer) =>
      (await controller()).answerApproval(requestId, argsHash, answer),
    answerEdited: async (requestId, argsHash, edited) =>
      (await controller()).answerEdited(requestId, argsHash, edited),
    previewAlwaysRule: async (requestId) => (await controller()).previewAlwaysRule(requestId),
    // Only an existing controller can have a running command; never make one for keystrokes.
    sendTerminalInput: async (callId, data) =>
      active ? active.controller.sendTerminalInput(callId, data) : false,
    revertCall: async (callId) => (await controller()).revertCall(callId),
    revertRun: async (runId) => (await controller()).revertRun(runId),
    previewRevertRun: async (runId) => (await controller()).previewRevertRun(runId),
    sessionChanges: async () => (factory && workspace ? (await controller()).sessionChanges() : []),
    revertFiles: async (paths) => (await controller()).revertFiles(paths),
    controller: async () => (factory && workspace ? controller() : null),
    existing: () => active?.controller ?? null,
    async workspaceChanged(next) {
      // Same folder (reopened, or its mode changed): the run goes on; the gate reads the mode
      // at every call.
      const sameFolder = workspace?.folder === next?.folder;
      workspace = next;
      if (!sameFolder) await release();
    },
    dispose: release,
  };
}
