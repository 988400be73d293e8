// The seam between the IPC handlers and the agent core. The composition root wires a real
// controller (runner + permission broker) per open folder; the handlers only forward to it.
import type { TandemApi, WorkspaceInfo } from '../../shared/api';
import type { RunEvent } from '../../shared/events';

/** The window's methods that a run controller serves (the handlers forward them). */
export type RunMethod =
  | 'startRun'
  | 'stopRun'
  | 'stopCall'
  | 'compactSession'
  | 'answerApproval'
  | 'answerEdited'
  | 'previewAlwaysRule'
  | 'sendTerminalInput'
  | 'revertCall'
  | 'revertRun'
  | 'previewRevertRun'
  | 'sessionChanges'
  | 'revertFiles';

/** The session a next task goes to, and whether a run of it is going. */
export interface CurrentSession {
  readonly id: string;
  readonly running: boolean;
}

/** The run methods of the window's API, with the same signatures, served per open folder. */
export interface RunController extends Pick<TandemApi, RunMethod> {
  /** Subscribe to run events; returns the unsubscribe function. */
  onEvent(listener: (sessionId: string, event: RunEvent) => void): () => void;
  /** Null until a session was started or opened. */
  currentSession(): CurrentSession | null;
  /** The next task continues this session (refused while a run is going). */
  openSession(sessionId: string): Promise<void>;
  /** The next task starts a new session (refused while a run is going). */
  newSession(): Promise<void>;
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
