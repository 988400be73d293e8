// The sessions sidebar: list, open (to see a past trace and continue it), start anew, rename and
// delete the sessions of the open folder. Transcripts are read from the data folder; which
// session a next task continues is the run controller's business.
import type { SessionSummary, WorkspaceInfo } from '../../shared/api';
import { readSessionEvents } from '../store/session-trace';
import {
  deleteStoredSession,
  listStoredSessions,
  renameStoredSession,
  storedSessionTitle,
} from '../store/session-list';
import { transcriptPath } from '../store/transcript';
import type { TandemHandlers } from './handler-types';
import type { RunHandlers } from './run-handlers';

export type SessionMethod =
  'listSessions' | 'openSession' | 'newSession' | 'renameSession' | 'deleteSession';

export interface SessionHandlerDeps {
  readonly dataDir: string;
  readonly workspace: () => WorkspaceInfo | null;
  readonly runs: Pick<RunHandlers, 'controller' | 'existing'>;
  /** The session the window now shows changed (null: a new one will start). */
  readonly onSessionChanged?: (sessionId: string | null) => void;
}

export function createSessionHandlers(
  deps: SessionHandlerDeps,
): Pick<TandemHandlers, SessionMethod> {
  function folder(): string {
    const open = deps.workspace();
    if (!open) throw new Error('Open a folder to see its sessions.');
    return open.folder;
  }

  async function list(): Promise<readonly SessionSummary[]> {
    const current = deps.runs.existing()?.currentSession() ?? null;
    const stored = await listStoredSessions(deps.dataDir, folder());
    return stored.map((session) => ({
      ...session,
      status: current?.id === session.id && current.running ? 'running' : session.status,
      current: current?.id === session.id,
    }));
  }

  return {
    listSessions: list,
    async openSession(sessionId) {
      const root = folder();
      // Read first: a missing or unreadable session changes nothing.
      const title = await storedSessionTitle(deps.dataDir, root, sessionId);
      const events = readSessionEvents(transcriptPath(deps.dataDir, root, sessionId));
      // Without a provider there is no controller: the trace can still be read.
      await (await deps.runs.controller())?.openSession(sessionId);
      deps.onSessionChanged?.(sessionId);
      return { sessionId, title, events };
    },
    async newSession() {
      folder();
      await (await deps.runs.controller())?.newSession();
      deps.onSessionChanged?.(null);
    },
    async renameSession(sessionId, title) {
      await renameStoredSession(deps.dataDir, folder(), sessionId, title);
      return list();
    },
    async deleteSession(sessionId) {
      const root = folder();
      const controller = deps.runs.existing();
      const current = controller?.currentSession() ?? null;
      if (current?.id === sessionId) {
        if (current.running)
          throw new Error('That session is running; stop it before deleting it.');
        // The window leaves it first, so nothing appends to a deleted transcript.
        await controller?.newSession();
        deps.onSessionChanged?.(null);
      }
      await deleteStoredSession(deps.dataDir, root, sessionId);
      return list();
    },
  };
}
