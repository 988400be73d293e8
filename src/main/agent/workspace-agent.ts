// The composition the window and the CLI share: one project folder, its session, the built-in
// tools with the undo journal and change tracking, a permission gate, and a provider. Undo tells
// the model what was put back; the changes panel lists and puts back the session's files. Change
// tracking is prepared as the session opens (the window), or once the first model request is out
// (the CLI, whose request follows at once), and a process that finds the project owned by another
// one runs read-only and says who holds it.
import { tandemFolders } from '../store/tandem-folders';
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import type { ChangedFile } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import type { ModelPrices } from '../../shared/model-settings';
import type { PermissionGate } from '../permissions/gate';
import type { ShellSessions } from '../shell/shell-sessions';
import { createBuiltinTools } from '../tools/builtin-tools';
import { createToolRegistry } from '../tools/registry';
import type { AnyTool, ToolServices } from '../tools/tool';
import type { RevertResult, RevertTurnResult } from '../workspace/file-journal';
import {
  openProjectJournal,
  type ProjectJournal,
  type ProjectJournalOptions,
} from '../workspace/project-journal';
import { createAgent, type Agent } from './agent';
import { describeInterrupted } from './interrupted-calls';
import type { McpToolSource } from '../mcp/mcp-host';
import { warmingUpOnFirstTurn, warmUpForCommands } from './session-warm-up';
import type { ChatProvider } from './provider';
import { revertNote, type RevertedFiles } from './revert-note';
import { revertSessionFiles, sessionChanges } from '../workspace/session-changes';

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
  /** Secret values (the provider's API key): no command's environment carries them. */
  readonly secretValues?: readonly string[];
  readonly sessionId?: string;
  readonly maxSteps?: number;
  /** The model's window as the person gives it (`--context-tokens`, Settings). */
  readonly contextTokens?: number;
  /** The model's prices, for the session's cost. */
  readonly prices?: ModelPrices;
  /** Replaces the built-in tools (tests, embedders); they get the same journal services. */
  readonly tools?: readonly AnyTool[];
  /**
   * What the first command needs, prepared while the first model request is out
   * (session-warm-up.ts); the real steps when absent. Tests may give their own to observe it.
   */
  readonly warmUp?: (folder: string) => Promise<void>;
  /** Lock and tracker settings (tests, the bench). */
  readonly project?: Pick<ProjectJournalOptions, 'lock' | 'tracker'>;
  /**
   * When change tracking (a scan of the project) starts: 'open' (default), or 'first-request'
   * where a run's first model request follows the open at once (the CLI), which the scan's many
   * callbacks and hashes would hold back (by a hundred ms and more in a project of a few thousand
   * files). Either way a command's snapshot waits for it, and a reopened session whose calls a
   * crash interrupted prepares it at open.
   */
  readonly prepareTracking?: 'open' | 'first-request';
  /** MCP servers whose tools join the registry (and which the first request briefly waits for). */
  readonly mcp?: McpToolSource;
  /** Longest the first request of a run waits for MCP servers (MCP_FIRST_REQUEST_WAIT_MS). */
  readonly mcpWaitMs?: number;
}

/** Longest the first model request of a run waits for MCP servers still starting. */
export const MCP_FIRST_REQUEST_WAIT_MS = 5000;

export interface WorkspaceAgent {
  readonly agent: Agent;
  /** Undo one call (an edit, a write, or a command that changed files); the model is told. */
  revertCall(callId: string): Promise<RevertResult>;
  /** Undo every change of one run, newest first; the model is told. */
  revertRun(runId: string): Promise<RevertTurnResult>;
  /** The files revertRun would put back now (absolute paths). */
  runChangedPaths(runId: string): string[];
  /** Files this session changed, diffed against the session's start. */
  sessionChanges(): Promise<ChangedFile[]>;
  /** Puts files (relative paths) back to the session's start; the model is told. */
  revertFiles(
    paths: readonly string[],
  ): Promise<{ ok: true; files: RevertedFiles } | { ok: false; reason: string }>;
  /** Set when another Tandem process owns the project: why this one changes nothing. */
  readonly readOnly: string | undefined;
  /** Settles when change tracking is ready (started now if it has not started yet). */
  readonly prepared: Promise<void>;
  /** Damaged records skipped while opening (transcript lines, journal lines), one sentence each. */
  loadProblems(): readonly string[];
  close(): Promise<void>;
}

/**
 * A call's key in the journal. Call ids are unique within a session only
 * (providers repeat them across sessions), while the journal is per project.
 */
export function journalKey(sessionId: string, callId: string): string {
  return `${sessionId}/${callId}`;
}

export async function openWorkspaceAgent(options: WorkspaceAgentOptions): Promise<WorkspaceAgent> {
  // The journal is per project (keyed by session and call), so undo survives restarts and sessions.
  const project = await openProjectJournal({
    folder: options.folder,
    dataDir: options.dataDir,
    ...options.project,
  });
  try {
    return await compose(options, project);
  } catch (error) {
    await project.release();
    throw error;
  }
}

async function compose(
  options: WorkspaceAgentOptions,
  project: ProjectJournal,
): Promise<WorkspaceAgent> {
  const { journal, tracker, readOnly } = project;
  let sessionId = options.sessionId ?? '';
  const keyOf = (callId: string): string => journalKey(sessionId, callId);
  // Built at open or once the first request is out (prepareTracking), not on the first command.
  let preparing: Promise<void> | undefined;
  // Set as close begins: a scan asked for later (the first turn's warm-up, a moment after a turn
  // that ended unsent) would run on a project whose lock this process has let go.
  let closing = false;
  const prepare = (): Promise<void> =>
    (preparing ??= readOnly || closing ? Promise.resolve() : tracker.prepare());
  /** Never rejects: a failed prepare is tried again, and reported, by the command that needs it. */
  const prepareQuietly = (): Promise<void> => prepare().catch(() => undefined);
  // After a crash (a call of any session left unsettled) the scan runs at open, before any call
  // of this process: it blames what changed since the last index on the interrupted command, and
  // a write of this session must not land in between. Only a crash pays for it.
  if (!readOnly && journal.hasUnsettled('')) await prepareQuietly();
  else if (options.prepareTracking !== 'first-request') void prepareQuietly();
  const network = options.network ?? { allowShellNetwork: false, allowPrivateNetwork: false };
  const dataFolders = tandemFolders(options.dataDir);
  const services: ToolServices = {
    // No tool and no command touches Tandem's own data, even where it lies inside the project.
    dataFolders,
    journal: {
      recordBefore: (absPath, callId) => journal.recordBefore(absPath, keyOf(callId)),
      recordAfter: (absPath, callId) => journal.recordAfter(absPath, keyOf(callId)),
      write: (absPath, callId, content) => journal.write(absPath, keyOf(callId), content),
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
        ...(options.secretValues ? { secretValues: options.secretValues } : {}),
      },
      commandSnapshots: {
        snapshotBefore: (callId) => tracker.snapshotBefore(keyOf(callId)),
        changesSince: (callId) => tracker.changesSince(keyOf(callId)),
      },
    });
  const gate: PermissionGate = readOnly
    ? async (request, emit, signal) =>
        request.tool.effect === 'read'
          ? options.gate(request, emit, signal)
          : { kind: 'refuse', message: `Not run: ${readOnly}` }
    : options.gate;
  const registry = createToolRegistry(tools);
  const detachMcp = options.mcp?.attach(registry);
  const mcp = options.mcp;
  const warmUp = options.warmUp ?? warmUpForCommands;
  const agent = createAgent({
    provider: warmingUpOnFirstTurn(options.provider, () => {
      void warmUp(options.folder);
      void prepareQuietly();
    }),
    registry,
    ...(mcp
      ? {
          beforeRun: (signal: AbortSignal) =>
            mcp.whenSettled(options.mcpWaitMs ?? MCP_FIRST_REQUEST_WAIT_MS, signal),
        }
      : {}),
    gate,
    folder: options.folder,
    dataDir: options.dataDir,
    services,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    interruptedCall: (callId) => describeInterrupted(journal, tracker, keyOf(callId)),
  });

  sessionId = agent.sessionId;

  // Which calls belong to which run, for "undo this run", and what each call and run was, for the
  // note the model gets after an undo (earlier runs come from the transcript).
  const callsByRun = new Map<string, string[]>();
  const calls = new Map<string, { runId: string; name: string; args: unknown }>();
  const tasks = new Map<string, string>();
  const track = (event: RunEvent): void => {
    if (event.type === 'run-started') tasks.set(event.runId, event.task);
    if (event.type !== 'tool-call-started') return;
    const ids = callsByRun.get(event.runId) ?? [];
    ids.push(event.callId);
    callsByRun.set(event.runId, ids);
    calls.set(event.callId, { runId: event.runId, name: event.name, args: event.args });
  };
  agent.pastEvents().forEach(track);
  const stopTracking = agent.onEvent(track);
  const relativeFiles = (files: readonly { path: string; action: 'restored' | 'deleted' }[]) =>
    files.map((f) => ({ path: relative(journal.folder, f.path) || '.', action: f.action }));
  const sessionPrefix = (): string => `${sessionId}/`;

  return {
    agent,
    async revertCall(callId) {
      const result = await journal.revert(keyOf(callId));
      const call = calls.get(callId);
      // A revert that stopped half-way still put some files back; the model hears of those.
      const undone = result.ok ? result.files : (result.restored ?? []);
      if (undone.length > 0) {
        const files = relativeFiles(undone);
        agent.recordRevert(
          { runId: call?.runId ?? '', scope: { kind: 'call', callId }, files },
          revertNote({ kind: 'call', name: call?.name ?? 'tool', args: call?.args }, files),
        );
      }
      return result;
    },
    async revertRun(runId) {
      const result = await journal.revertTurn((callsByRun.get(runId) ?? []).map(keyOf));
      if (result.files.length > 0) {
        const files = relativeFiles(result.files);
        agent.recordRevert(
          { runId, scope: { kind: 'run' }, files },
          revertNote({ kind: 'run', task: tasks.get(runId) }, files),
        );
      }
      return result;
    },
    runChangedPaths(runId) {
      const keys = (callsByRun.get(runId) ?? []).map(keyOf).filter((k) => journal.hasChanges(k));
      return [...new Set(keys.flatMap((key) => journal.pathsOf(key)))];
    },
    sessionChanges: () => sessionChanges(journal, sessionPrefix()),
    async revertFiles(paths) {
      const result = await revertSessionFiles(journal, sessionPrefix(), paths);
      if (!result.ok) return result;
      const files = relativeFiles(result.files);
      if (files.length > 0) {
        agent.recordRevert(
          { runId: `revert-${randomUUID()}`, scope: { kind: 'files' }, files },
          revertNote({ kind: 'files' }, files),
        );
      }
      return { ok: true, files };
    },
    readOnly,
    get prepared() {
      return prepare();
    },
    loadProblems: () => [...agent.loadProblems(), ...journal.loadProblems],
    async close() {
      closing = true;
      stopTracking();
      try {
        await agent.close();
      } finally {
        detachMcp?.();
        // A scan that started is let finish before the lock goes; one that never did is not begun.
        await preparing?.catch(() => undefined);
        await project.release();
      }
    },
  };
}
