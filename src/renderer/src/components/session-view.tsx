// The open folder: sessions on the left, the trace and the task box in the middle, the session's
// changes on the right when asked for, the status bar below.
import { useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useChangesStore } from '../stores/changes-store';
import { useSessionStore } from '../stores/session-store';
import { ChangesPanel } from './changes-panel';
import { ErrorBanner } from './error-banner';
import { LogoMark } from './logo-mark';
import { SessionsSidebar } from './sessions-sidebar';
import { StatusBar } from './status-bar';
import { TaskComposer } from './task-composer';
import { TraceList } from './trace-list';
import { VisibleText } from './visible-text';

/** Below this width the sidebar starts closed (it then opens over the trace). */
const WIDE = 1100;

export function SessionView({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const closeWorkspace = useAppStore((s) => s.closeWorkspace);
  const openSettings = useAppStore((s) => s.openSettings);
  const activeRunId = useSessionStore((s) => s.activeRunId);
  const title = useSessionStore((s) => s.title);
  const sessionId = useSessionStore((s) => s.sessionId);
  const actionError = useSessionStore((s) => s.actionError);
  const dismissError = useSessionStore((s) => s.dismissError);
  const changesOpen = useChangesStore((s) => s.open);
  const changedCount = useChangesStore((s) => s.files?.length ?? 0);
  const toggleChanges = useChangesStore((s) => s.toggle);
  const refreshChanges = useChangesStore((s) => s.refresh);
  const [sidebar, setSidebar] = useState(() => window.innerWidth >= WIDE);

  // The count on the Changes button follows the runs.
  useEffect(() => {
    void refreshChanges();
  }, [refreshChanges, activeRunId, workspace.folder]);

  return (
    <div
      className={`session${sidebar ? ' with-sidebar' : ''}${changesOpen ? ' with-changes' : ''}`}
    >
      <header className="session-header">
        <button
          type="button"
          className="button ghost icon"
          aria-label={sidebar ? 'Hide sessions' : 'Show sessions'}
          aria-expanded={sidebar}
          onClick={() => setSidebar(!sidebar)}
        >
          ☰
        </button>
        <LogoMark size={28} />
        <div className="session-title">
          <h1 className="workspace-name">{workspace.name}</h1>
          <span className="workspace-path" title={workspace.folder}>
            {title ? <VisibleText text={title} layout="inline" /> : workspace.folder}
          </span>
        </div>
        <button
          type="button"
          className={`button ghost${changesOpen ? ' pressed' : ''}`}
          aria-pressed={changesOpen}
          onClick={() => toggleChanges()}
        >
          Changes{changedCount > 0 ? ` (${changedCount})` : ''}
        </button>
        <button type="button" className="button ghost" onClick={openSettings}>
          Settings
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={closeWorkspace}
          disabled={activeRunId !== null}
        >
          Change folder
        </button>
      </header>
      {sidebar && <SessionsSidebar />}
      <main className="session-main">
        {/* Another session starts at its own end, following it, whatever the last one did. */}
        <TraceList key={sessionId ?? 'new'} />
        <footer className="session-footer">
          {actionError && <ErrorBanner message={actionError} onDismiss={dismissError} />}
          <TaskComposer />
        </footer>
      </main>
      {changesOpen && <ChangesPanel />}
      <StatusBar workspace={workspace} />
    </div>
  );
}
