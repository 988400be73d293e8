// Undo for a session that is not open: the same journal, keys and revert calls as the window's
// buttons (WorkspaceAgent.revertCall / revertRun behind src/main/ipc), with the session's runs and
// calls read from its transcript. No model and no agent are needed to put files back. The journal
// is opened as every process opens it (project-journal.ts): under the project's owner lock, so
// while another Tandem process has the project open this one changes nothing and says who holds
// it; as owner, what a crash interrupted is settled first (the change tracker's preparation).
import { existsSync, readFileSync } from 'node:fs';
import { transcriptPath } from '../store/transcript';
import type { RevertResult, RevertTurnResult } from '../workspace/file-journal';
import { openProjectJournal } from '../workspace/project-journal';
import { summarizeTranscript, type SessionRun } from './session-summaries';
import { journalKey } from './workspace-agent';

export interface UndoableCall {
  readonly callId: string;
  readonly name: string;
  readonly args: unknown;
  /** Absolute paths the call changed (and that are not reverted yet). */
  readonly paths: readonly string[];
}

export interface UndoableRun {
  readonly runId: string;
  readonly task: string;
  readonly calls: readonly UndoableCall[];
}

export interface SessionUndo {
  /** Runs with calls whose changes can still be reverted, oldest first. */
  undoable(): UndoableRun[];
  revertCall(callId: string): Promise<RevertResult>;
  revertRun(runId: string): Promise<RevertTurnResult>;
  /** Set when another Tandem process owns the project: why nothing can be undone from here. */
  readonly readOnly: string | undefined;
  /** Releases the journal and the project lock. */
  close(): Promise<void>;
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Opens the undo journal for one session of a project; throws a clear error for a bad id. */
export async function openSessionUndo(
  dataDir: string,
  realFolder: string,
  sessionId: string,
): Promise<SessionUndo> {
  if (!SESSION_ID.test(sessionId)) throw new Error(`"${sessionId}" is not a session id`);
  const file = transcriptPath(dataDir, realFolder, sessionId);
  if (!existsSync(file)) throw new Error(`no session ${sessionId} for ${realFolder}`);
  const { runs } = summarizeTranscript(sessionId, readFileSync(file, 'utf8'));
  const project = await openProjectJournal({ folder: realFolder, dataDir });
  const { journal, readOnly } = project;
  try {
    if (!readOnly) await project.tracker.prepare();
  } catch (error) {
    await project.release();
    throw error;
  }
  const key = (callId: string): string => journalKey(sessionId, callId);
  const runOf = (callId: string): SessionRun | undefined =>
    runs.find((run) => run.calls.some((call) => call.callId === callId));

  return {
    readOnly,
    close: () => project.release(),
    undoable() {
      return runs
        .map((run) => ({
          runId: run.runId,
          task: run.task,
          calls: run.calls
            .filter((call) => journal.hasChanges(key(call.callId)))
            .map((call) => ({ ...call, paths: journal.pathsOf(key(call.callId)) })),
        }))
        .filter((run) => run.calls.length > 0);
    },
    async revertCall(callId) {
      if (!runOf(callId)) {
        return {
          ok: false,
          callId,
          reason: `Session ${sessionId} has no call ${callId}.`,
          conflicts: [],
        };
      }
      return journal.revert(key(callId));
    },
    async revertRun(runId) {
      const run = runs.find((r) => r.runId === runId);
      if (!run) {
        return {
          ok: false,
          reverted: [],
          files: [],
          failedCallId: '',
          reason: `Session ${sessionId} has no run ${runId}.`,
        };
      }
      const result = await journal.revertTurn(run.calls.map((call) => key(call.callId)));
      // The journal speaks in keys; the person knows call ids.
      const callOf = (k: string): string => k.slice(sessionId.length + 1);
      return result.ok
        ? { ...result, reverted: result.reverted.map(callOf) }
        : {
            ...result,
            reverted: result.reverted.map(callOf),
            failedCallId: callOf(result.failedCallId),
          };
    },
  };
}
