// Runs: forwarded to the RunController of the open folder, created on first use.
import type { WorkspaceInfo } from '../../shared/api';
import type { AppEventHub } from './app-event-hub';
import type { TandemHandlers } from './handler-types';
import {
  NO_PROVIDER_MESSAGE,
  type RunController,
  type RunControllerFactory,
} from './run-controller';

export interface RunHandlers extends Pick<
  TandemHandlers,
  | 'startRun'
  | 'stopRun'
  | 'answerApproval'
  | 'previewAlwaysRule'
  | 'sendTerminalInput'
  | 'revertCall'
  | 'revertRun'
> {
  /** The open folder changed: the old controller is disposed, a new one is made on demand. */
  workspaceChanged(workspace: WorkspaceInfo | null): Promise<void>;
  dispose(): Promise<void>;
}

export function createRunHandlers(
  hub: AppEventHub,
  factory: RunControllerFactory | undefined,
): RunHandlers {
  let workspace: WorkspaceInfo | null = null;
  let active: { controller: RunController; unsubscribe: () => void } | null = null;
  let pending: Promise<RunController> | null = null;

  async function release(): Promise<void> {
    const current = active;
    active = null;
    pending = null;
    if (current) {
      current.unsubscribe();
      await current.controller.dispose?.();
    }
  }

  function controller(): Promise<RunController> {
    if (!workspace) return Promise.reject(new Error('Open a folder before starting a run.'));
    if (!factory) return Promise.reject(new Error(NO_PROVIDER_MESSAGE));
    if (active) return Promise.resolve(active.controller);
    if (!pending) {
      const forWorkspace = workspace;
      pending = Promise.resolve(factory(forWorkspace)).then((made) => {
        const unsubscribe = made.onEvent((sessionId, event) =>
          hub.emit({ type: 'run-event', sessionId, event }),
        );
        active = { controller: made, unsubscribe };
        return made;
      });
      // A failed factory (say, no API key) must not stick: the next attempt tries again.
      pending.catch(() => {
        pending = null;
      });
    }
    return pending;
  }

  return {
    startRun: async (task) => (await controller()).startRun(task),
    stopRun: async (runId) => (await controller()).stopRun(runId),
    answerApproval: async (requestId, argsHash, answer) =>
      (await controller()).answerApproval(requestId, argsHash, answer),
    previewAlwaysRule: async (requestId) => (await controller()).previewAlwaysRule(requestId),
    // Only an existing controller can have a running command; never make one for keystrokes.
    sendTerminalInput: async (callId, data) =>
      active ? active.controller.sendTerminalInput(callId, data) : false,
    revertCall: async (callId) => (await controller()).revertCall(callId),
    revertRun: async (runId) => (await controller()).revertRun(runId),
    async workspaceChanged(next) {
      if (workspace?.folder === next?.folder && workspace?.mode === next?.mode) return;
      await release();
      workspace = next;
    },
    dispose: release,
  };
}
