// The composition the window and the CLI share: one project folder, its session, the built-in
// tools with the undo journal and command snapshots, a permission gate, and a provider.
import { randomUUID } from 'node:crypto';
import { join, relative } from 'node:path';
import type { ChangedFile } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
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
import { revertSessionFiles, sessionChanges } from '../workspace/session-changes';
import { ShadowSnapshot } from '../workspace/shadow-snapshot';
import { createAgent, type Agent } from './agent';
import type { ChatProvider } from './provider';
import { revertNote, type RevertedFiles } from './revert-note';

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
  /** Replaces the built-in tools (tests, embedders); they get the same journal services. */
  readonly tools?: readonly AnyTool[];
}

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
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
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
    files.map((f) => ({ path: relative(journal.root, f.path) || '.', action: f.action }));

  return {
    agent,
    async revertCall(callId) {
      const result = await journal.revert(keyOf(callId));
      const call = calls.get(callId);
      if (result.ok && result.files.length > 0) {
        const files = relativeFiles(result.files);
        agent.recordRevert(
          { runId: call?.runId ?? '', scope: { kind: 'call', callId }, files },
          revertNote({ kind: 'call', name: call?.name ?? 'tool', args: call?.args }, files),
        );
      }
      return result;
    },
    async revertRun(runId) {
      const result = await journal.revertTurn((callsByRun.get(runId) ?? []).map(keyOf));
      // A revert that stopped half-way still undid some calls; the model hears of those.
      const undone = result.ok
        ? result.files
        : result.reverted.flatMap((key) =>
            journal.pathsOf(key).map((path) => ({ path, action: 'restored' as const })),
          );
      if (undone.length > 0) {
        const files = relativeFiles(undone);
        agent.recordRevert(
          { runId, scope: { kind: 'run' }, files },
          revertNote({ kind: 'run', task: tasks.get(runId) }, files),
        );
      }
      return result;
    },
    runChangedPaths: (runId) => journal.pendingPaths((callsByRun.get(runId) ?? []).map(keyOf)),
    sessionChanges: () => sessionChanges(journal, journal.root, `${sessionId}/`),
    async revertFiles(paths) {
      const result = await revertSessionFiles(journal, journal.root, `${sessionId}/`, paths);
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
    async close() {
      stopTracking();
      await agent.close();
    },
  };
}
