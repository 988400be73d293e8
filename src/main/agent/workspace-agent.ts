// The composition the window and the CLI share: one project folder, its session, the built-in
// tools with the undo journal and command snapshots, a permission gate, and a provider.
import { join } from 'node:path';
import type { RunEvent } from '../../shared/events';
import type { ModelPrices } from '../../shared/model-settings';
import type { PermissionGate } from '../permissions/gate';
import type { ShellSessions } from '../shell/shell-sessions';
import { projectDataDir } from '../store/data-dir';
import { createBuiltinTools } from '../tools/builtin-tools';
import { createToolRegistry } from '../tools/registry';
import type { AnyTool, ToolServices } from '../tools/tool';
import {
  openFileJournal,
  type RevertResult,
  type RevertTurnResult,
} from '../workspace/file-journal';
import { ShadowSnapshot } from '../workspace/shadow-snapshot';
import { createAgent, type Agent } from './agent';
import type { ChatProvider } from './provider';

/** Mutable per-project settings the tools read at call time (they may change between runs). */
export interface WorkspaceNetwork {
  allowShellNetwork: boolean;
  allowPrivateNetwork: boolean;
}

export interface WorkspaceAgentOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly dataDir: string;
  readonly provider: ChatProvider;
  readonly gate: PermissionGate;
  readonly network?: WorkspaceNetwork;
  /** Where running commands register so the person can type into them. */
  readonly shellSessions?: ShellSessions;
  /** Environment variable names holding secrets, kept out of commands. */
  readonly secretNames?: readonly string[];
  readonly sessionId?: string;
  readonly maxSteps?: number;
  /** The model's window as the person gives it (`--context-tokens`, Settings). */
  readonly contextTokens?: number;
  /** The model's prices, for the session's cost. */
  readonly prices?: ModelPrices;
  /** Replaces the built-in tools (tests, embedders); they get the same journal services. */
  readonly tools?: readonly AnyTool[];
}

export interface WorkspaceAgent {
  readonly agent: Agent;
  /** Undo one call (an edit, a write, or a command that changed files). */
  revertCall(callId: string): Promise<RevertResult>;
  /** Undo every change of one run, newest first. */
  revertRun(runId: string): Promise<RevertTurnResult>;
  /** Damaged records skipped while opening (transcript lines, journal lines), one sentence each. */
  loadProblems(): readonly string[];
  close(): Promise<void>;
}

export async function openWorkspaceAgent(options: WorkspaceAgentOptions): Promise<WorkspaceAgent> {
  const projectDir = projectDataDir(options.dataDir, options.folder);
  // The journal is per project (keyed by session and call), so undo survives restarts and sessions.
  const journal = await openFileJournal(join(projectDir, 'journal'), options.folder);
  const snapshots = new ShadowSnapshot({
    folder: options.folder,
    shadowDir: join(projectDir, 'shadow.git'),
    journal,
  });
  const network = options.network ?? { allowShellNetwork: false, allowPrivateNetwork: false };
  // Call ids are unique within a session only (providers repeat them across sessions), while the
  // journal and the shadow refs are per project: key them by session and call.
  let sessionId = options.sessionId ?? '';
  const keyOf = (callId: string): string => `${sessionId}/${callId}`;
  const services: ToolServices = {
    journal: {
      recordBefore: (absPath, callId) => journal.recordBefore(absPath, keyOf(callId)),
      recordAfter: (absPath, callId) => journal.recordAfter(absPath, keyOf(callId)),
    },
    get allowPrivateNetwork() {
      return network.allowPrivateNetwork;
    },
    get allowShellNetwork() {
      return network.allowShellNetwork;
    },
  };
  const tools =
    options.tools ??
    createBuiltinTools({
      shell: {
        ...(options.shellSessions ? { sessions: options.shellSessions } : {}),
        ...(options.secretNames ? { secretNames: options.secretNames } : {}),
      },
      commandSnapshots: {
        snapshotBefore: (callId) => snapshots.snapshotBefore(keyOf(callId)),
        changesSince: (callId) => snapshots.changesSince(keyOf(callId)),
      },
    });
  const agent = createAgent({
    provider: options.provider,
    registry: createToolRegistry(tools),
    gate: options.gate,
    folder: options.folder,
    dataDir: options.dataDir,
    services,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
  });

  sessionId = agent.sessionId;

  // Which calls belong to which run, for "undo this run" (earlier runs come from the transcript).
  const callsByRun = new Map<string, string[]>();
  const track = (event: RunEvent): void => {
    if (event.type !== 'tool-call-started') return;
    const calls = callsByRun.get(event.runId) ?? [];
    calls.push(event.callId);
    callsByRun.set(event.runId, calls);
  };
  agent.pastEvents().forEach(track);
  const stopTracking = agent.onEvent(track);

  return {
    agent,
    revertCall: (callId) => journal.revert(keyOf(callId)),
    revertRun: (runId) => journal.revertTurn((callsByRun.get(runId) ?? []).map(keyOf)),
    loadProblems: () => [...agent.loadProblems(), ...journal.loadProblems],
    async close() {
      stopTracking();
      await agent.close();
    },
  };
}
