// The questions main asks the person itself, in a native dialog the window cannot draw or answer,
// before a setting that widens what the agent may do: Autonomous mode, and the network allowed.
// A compromised window can ask for either change; only the person's click in main's dialog makes it.
import type { WorkspaceInfo } from '../../shared/api';
import { MODE_LABELS } from '../../shared/mode-labels';
import type { SandboxState } from '../../shared/tool-types';

export interface ConfirmRequest {
  readonly title: string;
  /** The question, one line. */
  readonly message: string;
  /** What saying yes means. */
  readonly detail: string;
  /** The yes button; the other one is Cancel, which is also the default. */
  readonly confirmLabel: string;
}

/** Asks the person in a dialog owned by main; true only when they chose `confirmLabel`. */
export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ASKED_HERE =
  'Tandem asks this itself, outside its window. Say yes only if you just asked for this change.';

export function autonomousConfirmation(
  workspace: WorkspaceInfo,
  sandbox: SandboxState,
): ConfirmRequest {
  return {
    title: `Switch to ${MODE_LABELS.autonomous} mode?`,
    message: `Let the agent work in "${workspace.name}" without asking you first?`,
    detail:
      `In ${MODE_LABELS.autonomous} mode, file changes and commands in ${workspace.folder} run ` +
      `without a card; commands run inside the sandbox (${sandbox.description}). ` +
      `Network tools follow the project's network setting.\n\n${ASKED_HERE}`,
    confirmLabel: `Switch to ${MODE_LABELS.autonomous}`,
  };
}

export function networkConfirmation(workspace: WorkspaceInfo): ConfirmRequest {
  return {
    title: 'Allow the network?',
    message: `Allow the network for "${workspace.name}"?`,
    detail:
      `Commands the agent runs in ${workspace.folder} will be able to reach the network ` +
      `(to install packages, for example), and in ${MODE_LABELS.autonomous} mode network tools ` +
      'run without asking. Output that may come from the network counts as outside content: ' +
      `your grants for commands pause for the rest of that session.\n\n${ASKED_HERE}`,
    confirmLabel: 'Allow the network',
  };
}

export const CONFIRMATION_OPEN_MESSAGE =
  'Tandem is already asking you to confirm a change; answer that dialog first.';

/** One question at a time: a window cannot stack dialogs hoping for a hurried yes. */
export function oneAtATime(confirm: Confirm): Confirm {
  let open = false;
  return async (request) => {
    if (open) throw new Error(CONFIRMATION_OPEN_MESSAGE);
    open = true;
    try {
      return await confirm(request);
    } finally {
      open = false;
    }
  };
}
