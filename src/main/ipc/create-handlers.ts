// The composition root of the IPC layer: plain functions over the core, with every outside
// dependency injected so the same handlers run in Electron and in the e2e test bridge.
import type { AppEvent, ProviderStatus } from '../../shared/api';
import type { PermissionMode, SandboxState } from '../../shared/tool-types';
import { createAppEventHub } from './app-event-hub';
import { createAppHandlers } from './app-handlers';
import type { AppEventListener, TandemHandlers } from './handler-types';
import { createRecentFolders } from './recent-folders';
import type { RunControllerFactory } from './run-controller';
import { createRunHandlers } from './run-handlers';
import { createWorkspaceHandlers } from './workspace-handlers';

export interface HandlerDeps {
  readonly appName: string;
  readonly appVersion: string;
  readonly platform?: string;
  /** Tandem's own data folder (recent folders, sessions, rules). */
  readonly dataDir: string;
  readonly chooseFolder: () => Promise<string | null>;
  readonly sandboxState: () => SandboxState | Promise<SandboxState>;
  readonly providerStatus: () => ProviderStatus | Promise<ProviderStatus>;
  /** Permission mode of a project; 'ask' when absent. */
  readonly modeFor?: (realFolder: string) => PermissionMode | Promise<PermissionMode>;
  /** Absent until a provider is configured: runs then fail with a clear message. */
  readonly runControllerFactory?: RunControllerFactory;
}

export interface TandemBackend {
  readonly handlers: TandemHandlers;
  /** Events main pushes to the window. */
  onEvent(listener: AppEventListener): () => void;
  emit(event: AppEvent): void;
  dispose(): Promise<void>;
}

export function createHandlers(deps: HandlerDeps): TandemBackend {
  const hub = createAppEventHub();
  const runs = createRunHandlers(hub, deps.runControllerFactory);
  const app = createAppHandlers({
    name: deps.appName,
    version: deps.appVersion,
    platform: deps.platform ?? process.platform,
    sandboxState: deps.sandboxState,
    providerStatus: deps.providerStatus,
  });
  const workspace = createWorkspaceHandlers({
    chooseFolder: deps.chooseFolder,
    recent: createRecentFolders(deps.dataDir),
    modeFor: deps.modeFor ?? (() => 'ask'),
    async onOpened(opened) {
      await runs.workspaceChanged(opened);
      hub.emit({ type: 'workspace-changed', workspace: opened });
    },
  });

  return {
    handlers: {
      ...app,
      ...workspace,
      startRun: runs.startRun,
      stopRun: runs.stopRun,
      answerApproval: runs.answerApproval,
    },
    onEvent: hub.subscribe,
    emit: hub.emit,
    dispose: runs.dispose,
  };
}
