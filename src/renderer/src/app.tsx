import { useEffect } from 'react';
import { McpProjectDialog } from './components/mcp-project-dialog';
import { SessionView } from './components/session-view';
import { SettingsView } from './components/settings-view';
import { WelcomeView } from './components/welcome-view';
import { useAppStore } from './stores/app-store';
import { useChangesStore } from './stores/changes-store';
import { useMcpStore } from './stores/mcp-store';
import { useSessionStore } from './stores/session-store';
import { useSessionsStore } from './stores/sessions-store';

export function App(): React.JSX.Element {
  const workspace = useAppStore((s) => s.workspace);
  const settingsOpen = useAppStore((s) => s.settingsOpen);

  useEffect(() => {
    void useAppStore.getState().load();
    return window.tandem.onEvent((event) => {
      switch (event.type) {
        case 'run-event':
          useSessionStore.getState().receive(event.sessionId, event.event);
          return;
        case 'workspace-changed': {
          const current = useAppStore.getState().workspace;
          if (current?.folder !== event.workspace?.folder) {
            useSessionStore.getState().reset();
            useSessionsStore.getState().clear();
            useChangesStore.getState().clear();
          }
          useAppStore.getState().setWorkspace(event.workspace);
          void useMcpStore.getState().load();
          return;
        }
        case 'mcp-changed':
          void useMcpStore.getState().load();
          return;
      }
    });
  }, []);

  const view = settingsOpen ? (
    <SettingsView workspace={workspace} />
  ) : workspace ? (
    <SessionView workspace={workspace} />
  ) : (
    <WelcomeView />
  );
  return (
    <>
      {view}
      {workspace && <McpProjectDialog />}
    </>
  );
}
