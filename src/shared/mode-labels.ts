// How the four modes (DESIGN.md §5) are named and explained to the person: window, CLI, errors.
import type { PermissionMode } from './tool-types';

export const MODE_LABELS: Readonly<Record<PermissionMode, string>> = {
  ask: 'Ask',
  'auto-edit': 'Auto-accept edits',
  'read-only': 'Read-only',
  autonomous: 'Autonomous',
};

export const MODE_DESCRIPTIONS: Readonly<Record<PermissionMode, string>> = {
  ask: 'Reads run; every edit, command and network call asks you first.',
  'auto-edit': 'Reads and file edits inside the folder run; commands and network calls ask.',
  'read-only': 'Only reads run; anything else is refused and the agent is told why.',
  autonomous:
    'Everything runs inside the sandbox without asking; network follows the setting below.',
};
