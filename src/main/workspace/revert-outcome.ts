// What an undo did, as the person reads it: paths relative to the project folder. The window's
// revert buttons (through IPC) and `tandem undo` both show journal results through these.
import { relative, sep } from 'node:path';
import type { RevertOutcome } from '../../shared/api';
import type { RevertResult, RevertTurnResult } from './file-journal';

/** Paths as the person knows them: relative to the project folder. */
function withinProject(text: string, folder: string): string {
  return text.split(`${folder}${sep}`).join('');
}

export function revertCallOutcome(result: RevertResult, folder: string): RevertOutcome {
  if (!result.ok) return { ok: false, message: withinProject(result.reason, folder), files: [] };
  const files = result.files.map((f) => ({
    path: relative(folder, f.path) || '.',
    action: f.action,
  }));
  const message =
    files.length === 0
      ? withinProject(result.message, folder)
      : `Reverted: ${files.map((f) => `${f.action} ${f.path}`).join(', ')}`;
  return { ok: true, message, files };
}

export function revertRunOutcome(result: RevertTurnResult, folder: string): RevertOutcome {
  if (!result.ok) return { ok: false, message: withinProject(result.reason, folder), files: [] };
  // The count as the message ("Reverted 2 call(s)."); the files for the window's trace line.
  const files = result.files.map((f) => ({
    path: relative(folder, f.path) || '.',
    action: f.action,
  }));
  return { ok: true, message: withinProject(result.message, folder), files };
}
