// Settings: one card per section, listed in SETTINGS_SECTIONS, so another section (MCP servers,
// say) slots in without touching the others.
import { useEffect } from 'react';
import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSettingsStore } from '../stores/settings-store';
import { AppearanceSection } from './appearance-section';
import { LogoMark } from './logo-mark';
import { McpSection } from './mcp-section';
import { PermissionsSection } from './permissions-section';
import { ProviderSection } from './provider-section';

export interface SettingsSectionProps {
  readonly workspace: WorkspaceInfo | null;
}

type SettingsSection = (props: SettingsSectionProps) => React.JSX.Element | null;

function ProjectPermissions({ workspace }: SettingsSectionProps): React.JSX.Element {
  if (workspace) return <PermissionsSection workspace={workspace} />;
  return (
    <section className="settings-card" aria-labelledby="permissions-title">
      <h2 id="permissions-title">Permissions</h2>
      <p className="muted">
        Modes, rules and grants belong to a project: open a folder to see and change them.
      </p>
    </section>
  );
}

function McpServers({ workspace }: SettingsSectionProps): React.JSX.Element {
  return <McpSection hasProject={workspace !== null} />;
}

/** In order, top to bottom. */
const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  ProviderSection,
  ProjectPermissions,
  McpServers,
  AppearanceSection,
];

export function SettingsView({
  workspace,
}: {
  workspace: WorkspaceInfo | null;
}): React.JSX.Element {
  const closeSettings = useAppStore((s) => s.closeSettings);
  const load = useSettingsStore((s) => s.load);

  useEffect(() => {
    void load();
  }, [load, workspace?.folder]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') closeSettings();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [closeSettings]);

  return (
    <div className="settings">
      <header className="session-header">
        <LogoMark size={28} />
        <div className="session-title">
          <h1 className="workspace-name">Settings</h1>
          <span className="workspace-path">
            {workspace ? `Project: ${workspace.folder}` : 'No project open'}
          </span>
        </div>
        <button type="button" className="button" onClick={closeSettings}>
          Done <kbd>Esc</kbd>
        </button>
      </header>
      <main className="settings-body">
        {SETTINGS_SECTIONS.map((Section, i) => (
          <Section key={i} workspace={workspace} />
        ))}
      </main>
    </div>
  );
}
