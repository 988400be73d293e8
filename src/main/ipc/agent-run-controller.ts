// The real RunController behind the window: the workspace agent, the permission gate and the
// approval broker for the open folder. Cards come from `approval-requested` events; answers arrive
// over IPC and go to the broker, which accepts each once, for the exact arguments shown.
import { relative } from 'node:path';
import type { WorkspaceInfo } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import type { SandboxState } from '../../shared/tool-types';
import { createOpenAIProvider, type ChatProvider } from '../agent/provider';
import { timeoutsFromSettings } from '../agent/request-watchdog';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../shared/provider-timeouts';
import { settingsOfModel } from '../../shared/model-settings';
import {
  openWorkspaceAgent,
  type WorkspaceAgent,
  type WorkspaceNetwork,
} from '../agent/workspace-agent';
import type { McpToolSource } from '../mcp/mcp-host';
import { loadEarlierCalls, previewAlwaysChoices } from '../permissions/always-rule-preview';
import { ApprovalBroker } from '../permissions/approval-broker';
import type { Asker } from '../permissions/asker';
import { createPermissionGate } from '../permissions/create-permission-gate';
import type { GrantBook } from '../permissions/grant-book';
import type { PermissionsStore } from '../permissions/project-permissions-store';
import type { PermissionRule } from '../permissions/permission-rule';
import { realPolicyDeps } from '../permissions/real-policy-deps';
import { shellSessions as processShellSessions, type ShellSessions } from '../shell/shell-sessions';
import { revertCallOutcome, revertRunOutcome } from '../workspace/revert-outcome';
import {
  loadProviderConfig,
  missingProviderSetting,
  type ProviderConfig,
} from '../store/provider-config';
import type { SettingsStore } from '../store/provider-settings';
import type { SecretStore } from '../store/secret-store';
import {
  FOLDER_CHANGED_MESSAGE,
  type RunController,
  type RunControllerFactory,
} from './run-controller';

export interface AgentRunControllerDeps {
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  readonly permissions: PermissionsStore;
  readonly grants: GrantBook;
  readonly sandbox: () => Promise<SandboxState>;
  readonly shellSessions?: ShellSessions;
  /** Tests swap the provider (e.g. a shorter retry backoff); the openai SDK otherwise. */
  readonly createProvider?: (config: ProviderConfig) => ChatProvider;
  /** Refused approval answers (forged, repeated, stale) are logged here. */
  readonly log?: (line: string) => void;
  /** The open folder's MCP servers, whose tools join the agent's registry. */
  readonly mcp?: McpToolSource;
}

export function createAgentRunControllerFactory(
  deps: AgentRunControllerDeps,
): RunControllerFactory {
  return (workspace) => createAgentRunController(workspace, deps);
}

function createAgentRunController(
  workspace: WorkspaceInfo,
  deps: AgentRunControllerDeps,
): RunController {
  const listeners = new Set<(sessionId: string, event: RunEvent) => void>();
  const broker = new ApprovalBroker({
    onRefused: (refused) =>
      deps.log?.(
        `tandem: refused an approval answer (${refused.reason}) for request ${refused.requestId}`,
      ),
  });
  // The card is drawn from the `approval-requested` event and answered over IPC; this asker only
  // keeps what "Always allow" would store, for the card's rule preview.
  const alwaysRules = new Map<string, readonly PermissionRule[]>();
  const asker: Asker = {
    ask(request, _respond, context) {
      alwaysRules.set(request.requestId, context.rules);
    },
  };
  const sessions = deps.shellSessions ?? processShellSessions;
  const gate = createPermissionGate({
    store: deps.permissions,
    grants: deps.grants,
    broker,
    asker,
    sandbox: deps.sandbox,
  });
  const network: WorkspaceNetwork = { allowShellNetwork: false, allowPrivateNetwork: false };
  let current: { agent: WorkspaceAgent; providerKey: string; unsubscribe: () => void } | undefined;
  let opening: Promise<WorkspaceAgent> | undefined;
  // Set when another folder is opened: nothing may start in this folder afterwards.
  let disposed = false;
  const ensureOpen = (): void => {
    if (disposed) throw new Error(FOLDER_CHANGED_MESSAGE);
  };

  const makeProvider =
    deps.createProvider ??
    ((config: ProviderConfig) =>
      createOpenAIProvider({
        baseUrl: config.baseUrl,
        model: config.model,
        // Local servers without keys still need a non-empty string for the SDK.
        apiKey: config.apiKey ?? 'no-key',
        timeouts: timeoutsFromSettings(config.timeouts ?? DEFAULT_TIMEOUT_SETTINGS),
      }));

  /**
   * The session the next agent opens: undefined keeps the current one, null starts a new one,
   * an id reopens that session (the sessions sidebar).
   */
  let nextSession: string | null | undefined;

  /** The agent for this folder and session, reopened when the provider settings change. */
  async function agentFor(config: ProviderConfig): Promise<WorkspaceAgent> {
    const modelSettings = settingsOfModel(config.models, config.model);
    const providerKey = JSON.stringify([
      config.baseUrl,
      config.model,
      config.apiKey ?? '',
      config.timeouts ?? null,
      modelSettings,
    ]);
    const wanted =
      nextSession !== undefined ? nextSession : (current?.agent.agent.sessionId ?? null);
    if (
      current &&
      current.providerKey === providerKey &&
      current.agent.agent.sessionId === wanted
    ) {
      return current.agent;
    }
    if (current?.agent.agent.activeRunId) {
      throw new Error('A run is still going; stop it before changing the provider.');
    }
    await closeCurrent(wanted);
    const agent = await openWorkspaceAgent({
      folder: workspace.folder,
      dataDir: deps.dataDir,
      provider: makeProvider(config),
      gate,
      network,
      shellSessions: sessions,
      secretNames: ['OPENAI_API_KEY', 'TANDEM_API_KEY'],
      ...(modelSettings.contextTokens !== undefined
        ? { contextTokens: modelSettings.contextTokens }
        : {}),
      ...(modelSettings.prices ? { prices: modelSettings.prices } : {}),
      // The stored key is never in an environment, but a copy the person exported would be.
      ...(config.apiKey !== undefined ? { secretValues: [config.apiKey] } : {}),
      ...(wanted ? { sessionId: wanted } : {}),
      ...(deps.mcp ? { mcp: deps.mcp } : {}),
    });
    const unsubscribe = agent.agent.onEvent((event) => {
      if (event.type === 'approval-resolved') alwaysRules.delete(event.requestId);
      for (const listener of listeners) listener(agent.agent.sessionId, event);
    });
    current = { agent, providerKey, unsubscribe };
    nextSession = undefined;
    return agent;
  }

  /** Closes the open agent; "for this session" grants end unless the same session goes on. */
  async function closeCurrent(keep: string | null): Promise<void> {
    const open = current;
    if (!open) return;
    current = undefined;
    open.unsubscribe();
    await open.agent.close();
    if (open.agent.agent.sessionId !== keep) deps.grants.endSession(open.agent.agent.sessionId);
  }

  /** One open at a time, so two quick calls cannot open two sessions. */
  function openAgent(config: ProviderConfig): Promise<WorkspaceAgent> {
    opening ??= agentFor(config).finally(() => {
      opening = undefined;
    });
    return opening;
  }

  /**
   * The agent of the session the window shows, for undo and the changes panel (these need no
   * working provider); null when no session was started or opened yet.
   */
  async function sessionAgent(): Promise<WorkspaceAgent | null> {
    ensureOpen();
    if (nextSession === undefined && current) return current.agent;
    if (nextSession === null || (nextSession === undefined && !current)) return null;
    const agent = await openAgent(await loadProviderConfig(deps.settings, deps.secrets));
    ensureOpen();
    return agent;
  }

  async function switchSession(next: string | null): Promise<void> {
    ensureOpen();
    if (opening) await opening.catch(() => undefined);
    if (current?.agent.agent.activeRunId) {
      throw new Error('A run is still going; stop it before switching sessions.');
    }
    if (current && current.agent.agent.sessionId === next) {
      nextSession = undefined;
      return;
    }
    await closeCurrent(next);
    nextSession = next;
  }

  return {
    async startRun(task) {
      ensureOpen();
      const config = await loadProviderConfig(deps.settings, deps.secrets);
      ensureOpen();
      const missing = missingProviderSetting(config);
      if (missing) throw new Error(missing);
      const stored = await deps.permissions.load(workspace.folder);
      ensureOpen();
      network.allowShellNetwork = stored.network === 'allow';
      const agent = await openAgent(config);
      // dispose() closes the agent it waited for; a run must not start unseen in the old folder.
      ensureOpen();
      const run = agent.agent.startRun(task);
      return { runId: run.runId, sessionId: run.sessionId };
    },
    async stopRun(runId) {
      current?.agent.agent.stop(runId);
      broker.denyAll('stop', runId);
    },
    async stopCall(callId) {
      return current?.agent.agent.stopCall(callId) ?? false;
    },
    async compactSession() {
      ensureOpen();
      // A new session, or none started or opened yet, has nothing to compact.
      if (nextSession === null || (nextSession === undefined && !current)) {
        return { ok: false, message: 'Nothing to compact yet: no conversation in this window.' };
      }
      // The session the window shows (one reopened from the sidebar is opened now); the
      // summary is asked of the provider as it is set now.
      const config = await loadProviderConfig(deps.settings, deps.secrets);
      ensureOpen();
      const missing = missingProviderSetting(config);
      if (missing) return { ok: false, message: missing };
      const agent = await openAgent(config);
      ensureOpen();
      return agent.agent.compact();
    },
    async answerApproval(requestId, argsHash, answer) {
      const result = broker.answer(requestId, argsHash, answer, 'person');
      if (!result.ok) throw new Error(`Answer not accepted: ${result.message}.`);
    },
    async answerEdited(requestId, argsHash, edited) {
      const result = broker.answerEdited(requestId, argsHash, edited);
      if (!result.ok) throw new Error(`Edit not accepted: ${result.message}.`);
    },
    async previewAlwaysRule(requestId) {
      const rules = alwaysRules.get(requestId);
      if (!rules) throw new Error('That approval request is no longer pending.');
      // The pending request is in the transcript already; it is not an earlier call.
      const calls = await loadEarlierCalls(deps.dataDir, workspace.folder, requestId);
      return previewAlwaysChoices(rules, calls, workspace.folder, realPolicyDeps);
    },
    async sendTerminalInput(callId, data) {
      return sessions.write(callId, data);
    },
    async revertCall(callId) {
      const agent = await sessionAgent();
      if (!agent) throw new Error('Nothing to revert: this session changed no files.');
      return revertCallOutcome(await agent.revertCall(callId), workspace.folder);
    },
    async revertRun(runId) {
      const agent = await sessionAgent();
      if (!agent) throw new Error('Nothing to revert: this session changed no files.');
      return revertRunOutcome(await agent.revertRun(runId), workspace.folder);
    },
    async previewRevertRun(runId) {
      const agent = await sessionAgent();
      const root = agent ? agent.agent.folder : workspace.folder;
      return (agent?.runChangedPaths(runId) ?? []).map((path) => relative(root, path) || '.');
    },
    async sessionChanges() {
      const agent = await sessionAgent();
      return agent ? agent.sessionChanges() : [];
    },
    async revertFiles(paths) {
      const agent = await sessionAgent();
      if (!agent) throw new Error('Nothing to revert: this session changed no files.');
      const result = await agent.revertFiles(paths);
      if (!result.ok) return { ok: false, message: result.reason, files: [] };
      return {
        ok: true,
        message:
          result.files.length === 0
            ? 'These files were already as they were when the session started.'
            : `Reverted: ${result.files.map((f) => `${f.action} ${f.path}`).join(', ')}`,
        files: result.files,
      };
    },
    currentSession() {
      if (nextSession !== undefined)
        return nextSession ? { id: nextSession, running: false } : null;
      if (!current) return null;
      return {
        id: current.agent.agent.sessionId,
        running: current.agent.agent.activeRunId !== undefined,
      };
    },
    openSession: (sessionId) => switchSession(sessionId),
    newSession: () => switchSession(null),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      disposed = true;
      // An agent still opening is closed too, or it would outlive the window's folder.
      if (opening) await opening.catch(() => undefined);
      const open = current;
      current = undefined;
      // Denied as "closed" first, then the run is aborted and awaited, so the window still gets
      // `approval-resolved` and `run-finished` before the listeners go.
      broker.denyAll('closed');
      if (open) {
        try {
          await open.agent.close();
        } finally {
          open.unsubscribe();
          // "Allow for this session" ends with the session.
          deps.grants.endSession(open.agent.agent.sessionId);
        }
      }
      alwaysRules.clear();
      listeners.clear();
    },
  };
}
