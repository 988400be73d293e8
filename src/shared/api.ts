// The contract between the window and main: `window.tandem`. The preload exposes exactly this;
// main implements it (src/main/ipc) and validates every payload (./ipc-schemas.ts).
import type { RunEvent } from './events';
import type { ApprovalAnswer, PermissionMode, SandboxState } from './tool-types';

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly platform: string;
  readonly sandbox: SandboxState;
}

export interface WorkspaceInfo {
  /** The real path of the project folder. */
  readonly folder: string;
  readonly name: string;
  readonly mode: PermissionMode;
}

export interface ProviderStatus {
  readonly baseUrl: string;
  readonly model: string;
  /** Whether a key is stored. The key itself never reaches the window. */
  readonly hasApiKey: boolean;
}

/** Something main pushes to the window: run events, and workspace changes. */
export type AppEvent =
  | { readonly type: 'run-event'; readonly sessionId: string; readonly event: RunEvent }
  | { readonly type: 'workspace-changed'; readonly workspace: WorkspaceInfo | null };

export interface TandemApi {
  getAppInfo(): Promise<AppInfo>;
  /** Round-trip check used by tests and the status bar. */
  ping(message: string): Promise<string>;
  /** Shows the OS folder picker; null when the person cancelled. */
  chooseFolder(): Promise<WorkspaceInfo | null>;
  openFolder(folder: string): Promise<WorkspaceInfo>;
  recentFolders(): Promise<readonly string[]>;
  getProviderStatus(): Promise<ProviderStatus>;
  startRun(task: string): Promise<{ readonly runId: string; readonly sessionId: string }>;
  stopRun(runId: string): Promise<void>;
  answerApproval(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void>;
  /** Subscribe to main's pushes; returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** The invoke-style methods (everything but the subscription), i.e. the IPC channels. */
export type TandemInvokeMethod = Exclude<keyof TandemApi, 'onEvent'>;

export const TANDEM_INVOKE_METHODS = [
  'getAppInfo',
  'ping',
  'chooseFolder',
  'openFolder',
  'recentFolders',
  'getProviderStatus',
  'startRun',
  'stopRun',
  'answerApproval',
] as const satisfies readonly TandemInvokeMethod[];

// Compile-time check that the list names every invoke method.
type Missing = Exclude<TandemInvokeMethod, (typeof TANDEM_INVOKE_METHODS)[number]>;
const everyMethodListed: Missing extends never ? true : Missing = true;
void everyMethodListed;

export const IPC_PREFIX = 'tandem:';
export const IPC_EVENT_CHANNEL = 'tandem:event';

export function channelFor(method: TandemInvokeMethod): string {
  return IPC_PREFIX + method;
}
