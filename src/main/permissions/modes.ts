// The four per-project modes (DESIGN.md §5) and what each means when this machine has no sandbox.
import type { PermissionMode, SandboxState } from '../../shared/tool-types';

export interface EffectiveMode {
  readonly mode: PermissionMode;
  /** Why the effective mode differs from the chosen one (autonomous without a sandbox). */
  readonly note?: string;
}

/** Autonomous mode is only honoured where commands really run inside a sandbox. */
export function effectiveMode(mode: PermissionMode, sandbox: SandboxState): EffectiveMode {
  if (mode === 'autonomous' && !sandbox.available) {
    return {
      mode: 'ask',
      note: `autonomous mode needs a sandbox and this machine has none (${sandbox.description}), so Tandem asks as in Ask mode`,
    };
  }
  return { mode };
}

export function parseMode(text: string): PermissionMode | null {
  switch (text) {
    case 'ask':
    case 'auto-edit':
    case 'read-only':
    case 'autonomous':
      return text;
    default:
      return null;
  }
}

/** The tool result the model receives when read-only mode refuses a call. */
export function readOnlyRefusal(what: string): string {
  return (
    `Tandem is in read-only mode for this project: only reads run, so ${what} was not run. ` +
    'Continue with reads, or ask the person to switch modes if a change is needed.'
  );
}
