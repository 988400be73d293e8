// The seam between the IPC handlers and the agent core. The composition root wires a real
// controller (runner + permission broker) per open folder; the handlers only forward to it.
import type { AlwaysRulePreview, RevertOutcome, WorkspaceInfo } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import type { ApprovalAnswer } from '../../shared/tool-types';

export interface RunController {
  startRun(task: string): Promise<{ readonly runId: string; readonly sessionId: string }>;
  stopRun(runId: string): Promise<void>;
  answerApproval(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void>;
  /** The rule "Always allow" would store for a pending request, and what it would have matched. */
  previewAlwaysRule(requestId: string): Promise<AlwaysRulePreview>;
  /** The person's keystrokes into a running command; false when that command is not running. */
  sendTerminalInput(callId: string, data: string): Promise<boolean>;
  revertCall(callId: string): Promise<RevertOutcome>;
  revertRun(runId: string): Promise<RevertOutcome>;
  /** Subscribe to run events; returns the unsubscribe function. */
  onEvent(listener: (sessionId: string, event: RunEvent) => void): () => void;
  /** Stops any run and releases resources (called when another folder is opened or on quit). */
  dispose?(): Promise<void> | void;
}

/** Makes the controller for one open folder; throws a person-readable error when it cannot. */
export type RunControllerFactory = (
  workspace: WorkspaceInfo,
) => RunController | Promise<RunController>;

export const NO_PROVIDER_MESSAGE =
  'No provider configured: set a model provider (base URL, model and API key) before starting a run.';

/** A run asked for in a folder that was closed (another one opened) before it could start. */
export const FOLDER_CHANGED_MESSAGE = 'The folder was changed; the run was not started.';
