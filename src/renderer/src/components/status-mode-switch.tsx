import type { WorkspaceInfo } from '../../../shared/api';
import { PERMISSION_MODES, type PermissionMode } from '../../../shared/tool-types';
import { errorMessage } from '../error-message';
import { MODE_DESCRIPTIONS, MODE_LABELS } from '../../../shared/mode-labels';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { modeUnavailable } from './mode-picker';

/** The project's mode in the status bar, switchable in place. */
export function StatusModeSwitch({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const sandbox = useAppStore((s) => s.info?.sandbox);
  const setWorkspace = useAppStore((s) => s.setWorkspace);

  async function change(mode: PermissionMode): Promise<void> {
    try {
      setWorkspace(await window.tandem.setMode(mode));
    } catch (error) {
      useSessionStore.setState({ actionError: errorMessage(error) });
    }
  }

  return (
    <label className="status-mode" title={MODE_DESCRIPTIONS[workspace.mode]}>
      Mode:
      <select
        aria-label="Mode"
        value={workspace.mode}
        onChange={(event) => void change(event.target.value as PermissionMode)}
      >
        {PERMISSION_MODES.map((mode) => {
          const unavailable = modeUnavailable(mode, sandbox);
          return (
            <option
              key={mode}
              value={mode}
              disabled={unavailable !== null}
              title={unavailable ?? ''}
            >
              {MODE_LABELS[mode]}
              {unavailable ? ' (needs a sandbox)' : ''}
            </option>
          );
        })}
      </select>
    </label>
  );
}
