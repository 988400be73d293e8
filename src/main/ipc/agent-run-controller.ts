// The real RunController behind the window: the workspace agent, the permission gate and the
// approval broker for the open folder. Cards come from `approval-requested` events; answers arrive
// over IPC and go to the broker, which accepts each once, for the exact arguments shown.
import type { WorkspaceInfo } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import type { SandboxState } from '../../shared/tool-types';
import { createOpenAIProvider, type ChatProvider } from '../agent/provider';
import { timeoutsFromSettings } from '../agent/request-watchdog';
import { DEFAULT_TIMEOUT_SETTINGS } from '../../shared/provider-timeouts';
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

  /** The agent for this folder, reopened on the same session when the provider settings change. */
  async function agentFor(config: ProviderConfig): Promise<WorkspaceAgent> {
    const modelSettings = config.models?.[config.model] ?? {};
    const providerKey = JSON.stringify([
      config.baseUrl,
      config.model,
      config.apiKey ?? '',
      config.timeouts ?? null,
      modelSettings,
    ]);
    if (current && current.providerKey === providerKey) return current.agent;
    if (current?.agent.agent.activeRunId) {
      throw new Error('A run is still going; stop it before changing the provider.');
    }
    const sessionId = current?.agent.agent.sessionId;
    if (current) {
      current.unsubscribe();
      await current.agent.close();
      current = undefined;
    }
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
      ...(sessionId ? { sessionId } : {}),
      ...(deps.mcp ? { mcp: deps.mcp } : {}),
    });
    const unsubscribe = agent.agent.onEvent((event) => {
      if (event.type === 'approval-resolved') alwaysRules.delete(event.requestId);
      for (const listener of listeners) listener(agent.agent.sessionId, event);
    });
    current = { agent, providerKey, unsubscribe };
    return agent;
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
      // One open at a time, so two quick sends cannot open two sessions.
      opening ??= agentFor(config).finally(() => {
        opening = undefined;
      });
      const { agent } = await opening;
      // dispose() closes the agent it waited for; a run must not start unseen in the old folder.
      ensureOpen();
      const run = agent.startRun(task);
      return { runId: run.runId, sessionId: run.sessionId };
    },
    async stopRun(runId) {
      current?.agent.agent.stop(runId);
      broker.denyAll('stop', runId);
    },
    async compactSession() {
      ensureOpen();
      // A session the window has not yet run in this folder has nothing to compact.
      if (!current) {
        return { ok: false, message: 'Nothing to compact yet: no conversation in this window.' };
      }
      return current.agent.agent.compact();
    },
    async answerApproval(requestId, argsHash, answer) {
      const result = broker.answer(requestId, argsHash, answer, 'person');
      if (!result.ok) throw new Error(`Answer not accepted: ${result.message}.`);
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
      if (!current) throw new Error('Nothing to revert: no run of this window changed files.');
      return revertCallOutcome(await current.agent.revertCall(callId), workspace.folder);
    },
    async revertRun(runId) {
      if (!current) throw new Error('Nothing to revert: no run of this window changed files.');
      return revertRunOutcome(await current.agent.revertRun(runId), workspace.folder);
    },
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
