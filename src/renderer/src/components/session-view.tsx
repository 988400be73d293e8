import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { ErrorBanner } from './error-banner';
import { LogoMark } from './logo-mark';
import { StatusBar } from './status-bar';
import { TaskComposer } from './task-composer';
import { TraceList } from './trace-list';

export function SessionView({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const closeWorkspace = useAppStore((s) => s.closeWorkspace);
  const openSettings = useAppStore((s) => s.openSettings);
  const activeRunId = useSessionStore((s) => s.activeRunId);
  const actionError = useSessionStore((s) => s.actionError);
  const dismissError = useSessionStore((s) => s.dismissError);

  return (
    <div className="session">
      <header className="session-header">
        <LogoMark size={28} />
        <div className="session-title">
          <h1 className="workspace-name">{workspace.name}</h1>
          <span className="workspace-path" title={workspace.folder}>
            {workspace.folder}
          </span>
        </div>
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
      <TraceList />
      <footer className="session-footer">
        {actionError && <ErrorBanner message={actionError} onDismiss={dismissError} />}
        <TaskComposer />
      </footer>
      <StatusBar workspace={workspace} />
    </div>
  );
}
