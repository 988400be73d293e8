import type { NetworkSetting, WorkspaceInfo } from '../../../shared/api';
import { useSettingsStore } from '../stores/settings-store';
import { ErrorBanner } from './error-banner';
import { GrantList, RuleList } from './permission-lists';
import { ModePicker } from './mode-picker';

const NETWORK_OPTIONS: readonly { value: NetworkSetting; label: string; hint: string }[] = [
  { value: 'off', label: 'Off', hint: 'Network tools are refused.' },
  { value: 'ask', label: 'Ask', hint: 'Each fetch asks you first.' },
  {
    value: 'allow',
    label: 'Allow',
    hint: 'Commands may reach the network; Autonomous mode may fetch without asking.',
  },
];

export function PermissionsSection({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const { permissions, permissionsError, setMode, setNetwork, dismissError } = useSettingsStore();

  return (
    <section className="settings-card" aria-labelledby="permissions-title">
      <h2 id="permissions-title">Permissions for {workspace.name}</h2>
      {permissionsError && <ErrorBanner message={permissionsError} onDismiss={dismissError} />}
      {permissions === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <ModePicker
            mode={workspace.mode}
            sandbox={permissions.sandbox}
            onChange={(mode) => void setMode(mode)}
          />
          <fieldset className="network-setting">
            <legend className="field-label">Network</legend>
            <div className="segmented" role="radiogroup" aria-label="Network">
              {NETWORK_OPTIONS.map((option) => (
                <button
                  key={option.value}
                  type="button"
                  role="radio"
                  aria-checked={permissions.network === option.value}
                  className="segment"
                  onClick={() => void setNetwork(option.value)}
                >
                  {option.label}
                </button>
              ))}
            </div>
            <span className="field-hint">
              {NETWORK_OPTIONS.find((o) => o.value === permissions.network)?.hint}
            </span>
          </fieldset>
          <RuleList rules={permissions.rules} />
          <GrantList grants={permissions.grants} />
        </>
      )}
    </section>
  );
}
