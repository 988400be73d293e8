// The composition root of the IPC layer: plain functions over the core, with every outside
// dependency injected so the same handlers run in Electron and in the e2e test bridge.
import { tandemFolders } from '../store/tandem-folders';
import { homedir } from 'node:os';
import type { AppEvent, WorkspaceInfo } from '../../shared/api';
import type { SandboxState } from '../../shared/tool-types';
import type { ProbeOptions } from '../agent/provider-probe';
import type { GrantBook } from '../permissions/grant-book';
import type { PermissionsStore } from '../permissions/project-permissions-store';
import type { SettingsStore } from '../store/provider-settings';
import type { SecretStore } from '../store/secret-store';
import { createAppEventHub } from './app-event-hub';
import { createAppHandlers } from './app-handlers';
import type { AppEventListener, TandemHandlers } from './handler-types';
import { createPermissionHandlers } from './permission-handlers';
import { createRecentFolders } from './recent-folders';
import type { RunControllerFactory } from './run-controller';
import { createRunHandlers } from './run-handlers';
import { createSessionHandlers } from './session-handlers';
import { oneAtATime, type Confirm } from './setting-confirmation';
import { createSettingsHandlers } from './settings-handlers';
import { createWorkspaceHandlers } from './workspace-handlers';
import { McpHost, storedKeySecrets } from '../mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../mcp/mcp-stores';
import { createMcpHandlers } from './mcp-handlers';

export interface HandlerDeps {
  readonly appName: string;
  readonly appVersion: string;
  readonly platform?: string;
  /** Tandem's own data folder (recent folders, sessions, rules). */
  readonly dataDir: string;
  /** The native folder dialog: the only way a folder the window did not open before gets in. */
  readonly chooseFolder: () => Promise<string | null>;
  /** A native dialog main owns, asked before Autonomous mode or the network is turned on. */
  readonly confirm: Confirm;
  /** The person's home folder, never opened as a project; `os.homedir()` when absent. */
  readonly home?: string;
  readonly sandboxState: () => SandboxState | Promise<SandboxState>;
  /** Base URL, model and preset of the provider. */
  readonly settings: SettingsStore;
  /** The API key; no handler ever returns it. */
  readonly secrets: SecretStore;
  /** Mode, network setting and rules per project; share the instance with the agent. */
  readonly permissions: PermissionsStore;
  /** Session and timed grants; share the instance with the agent. */
  readonly grants: GrantBook;
  /** Timeout of the model list and connection test. */
  readonly probe?: ProbeOptions;
  /** Absent until a provider is configured: runs then fail with a clear message. */
  readonly runControllerFactory?: RunControllerFactory;
  /** The MCP servers of the open folder; share the instance with the run controller factory. */
  readonly mcp?: McpHost;
}

/** The window hears that MCP servers changed at most this often (a flooding log is one change). */
export const MCP_CHANGE_INTERVAL_MS = 250;

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
  let workspace: WorkspaceInfo | null = null;
  let sessionId: string | null = null;
  hub.subscribe((event) => {
    if (event.type === 'run-event' && event.event.type === 'run-started') {
      sessionId = event.sessionId;
    }
  });

  const mcpHost =
    deps.mcp ??
    new McpHost({
      store: new JsonFileMcpSettingsStore(deps.dataDir),
      sandbox: async () => deps.sandboxState(),
      dataFolders: tandemFolders(deps.dataDir),
      childSecrets: storedKeySecrets(deps.secrets),
    });
  const stopMcpEvents = mcpHost.onChange(
    throttled(MCP_CHANGE_INTERVAL_MS, () => hub.emit({ type: 'mcp-changed' })),
  );

  const settings = createSettingsHandlers({
    settings: deps.settings,
    secrets: deps.secrets,
    ...(deps.probe ? { probe: deps.probe } : {}),
  });
  const app = createAppHandlers({
    name: deps.appName,
    version: deps.appVersion,
    platform: deps.platform ?? process.platform,
    sandboxState: deps.sandboxState,
    providerStatus: settings.providerStatus,
  });
  const openFolders = createWorkspaceHandlers({
    chooseFolder: deps.chooseFolder,
    recent: createRecentFolders(deps.dataDir),
    folderPolicy: {
      platform: process.platform,
      home: deps.home ?? homedir(),
      // The app's folder, the CLI's and the CLI's code cache: the agent must reach none.
      dataFolders: tandemFolders(deps.dataDir),
      env: process.env,
    },
    modeFor: async (folder) => (await deps.permissions.load(folder)).mode,
    async onOpened(opened) {
      if (workspace?.folder !== opened.folder) sessionId = null;
      const folderChanged = workspace?.folder !== opened.folder;
      workspace = opened;
      await runs.workspaceChanged(opened);
      // The folder's MCP servers start in the background; the window follows their state.
      if (folderChanged) void mcpHost.openFolder(opened.folder);
      hub.emit({ type: 'workspace-changed', workspace: opened });
    },
  });
  const permissions = createPermissionHandlers({
    permissions: deps.permissions,
    grants: deps.grants,
    sandboxState: deps.sandboxState,
    workspace: () => workspace,
    sessionId: () => sessionId,
    confirm: oneAtATime(deps.confirm),
    // The gate reads the stored mode at every call, so a running agent follows the change
    // without being restarted; only the window needs telling.
    onModeChanged(changed) {
      workspace = changed;
      // Same folder: the runs keep going, only their record of the workspace follows.
      void runs.workspaceChanged(changed);
      hub.emit({ type: 'workspace-changed', workspace: changed });
    },
  });

  const sessions = createSessionHandlers({
    dataDir: deps.dataDir,
    workspace: () => workspace,
    runs,
    onSessionChanged(changed) {
      sessionId = changed;
    },
  });

  const mcp = createMcpHandlers({
    host: mcpHost,
    confirm: oneAtATime(deps.confirm),
    sandboxState: deps.sandboxState,
    workspace: () => workspace,
    sessionId: () => sessionId,
    permissions: deps.permissions,
    grants: deps.grants,
  });

  return {
    handlers: {
      ...app,
      ...sessions,
      ...openFolders,
      startRun: runs.startRun,
      stopRun: runs.stopRun,
      stopCall: runs.stopCall,
      compactSession: runs.compactSession,
      answerApproval: runs.answerApproval,
      answerEdited: runs.answerEdited,
      previewAlwaysRule: runs.previewAlwaysRule,
      sendTerminalInput: runs.sendTerminalInput,
      revertCall: runs.revertCall,
      revertRun: runs.revertRun,
      previewRevertRun: runs.previewRevertRun,
      sessionChanges: runs.sessionChanges,
      revertFiles: runs.revertFiles,
      getSettings: settings.getSettings,
      setProviderSettings: settings.setProviderSettings,
      setApiKey: settings.setApiKey,
      clearApiKey: settings.clearApiKey,
      setProviderTimeouts: settings.setProviderTimeouts,
      setModelSettings: settings.setModelSettings,
      listModels: settings.listModels,
      testConnection: settings.testConnection,
      ...permissions,
      ...mcp,
    },
    onEvent: hub.subscribe,
    emit: hub.emit,
    async dispose() {
      try {
        await runs.dispose();
      } finally {
        stopMcpEvents();
        await mcpHost.close();
      }
    },
  };
}

/** Calls `fn` at most once per `ms`, and once more after a burst so the last change is told. */
function throttled(ms: number, fn: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      fn();
    }, wait);
    timer.unref?.();
  };
}
