import type { PermissionMode, SandboxState } from '../../../shared/tool-types';
import { PERMISSION_MODES } from '../../../shared/tool-types';
import { MODE_DESCRIPTIONS, MODE_LABELS } from '../../../shared/mode-labels';

/** Why a mode cannot be chosen here, or null when it can. */
export function modeUnavailable(
  mode: PermissionMode,
  sandbox: SandboxState | undefined,
): string | null {
  if (mode !== 'autonomous' || sandbox?.available) return null;
  return `Needs a sandbox for commands, and this machine has none${
    sandbox ? ` (${sandbox.description})` : ''
  }.`;
}

export function ModePicker(props: {
  mode: PermissionMode;
  sandbox: SandboxState | undefined;
  onChange: (mode: PermissionMode) => void;
}): React.JSX.Element {
  return (
    <fieldset className="mode-picker">
      <legend className="field-label">Mode</legend>
      {PERMISSION_MODES.map((mode) => {
        const unavailable = modeUnavailable(mode, props.sandbox);
        return (
          <label key={mode} className={`mode-option ${unavailable ? 'disabled' : ''}`}>
            <input
              type="radio"
              name="mode"
              value={mode}
              checked={props.mode === mode}
              disabled={unavailable !== null}
              onChange={() => props.onChange(mode)}
            />
            <span>
              <span className="mode-name">{MODE_LABELS[mode]}</span>
              <span className="mode-description">{MODE_DESCRIPTIONS[mode]}</span>
              {unavailable && <span className="mode-description warn-text">{unavailable}</span>}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
