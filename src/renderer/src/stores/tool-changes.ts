// What a finished tool card can offer about files: the command's changes come as data on the
// result event (never read back out of the text, issue 11 item 3), and whether the call can be
// undone from the window.
import { renderChangeNote } from '../../../shared/change-report';
import type { TraceItem } from './trace-model';

type ToolItem = Extract<TraceItem, { kind: 'tool' }>;

const FILE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/**
 * What the command printed: `result` (the result as shown: masked, or revealed by the person)
 * without the change note that was appended to it. The note is rendered again from the data and
 * compared whole, so a file name cannot move the cut; a result whose note had a secret masked no
 * longer ends with it and is shown whole.
 */
export function commandText(tool: ToolItem, result: string | undefined = tool.result): string {
  const text = result ?? '';
  if (!tool.changes) return text;
  const note = `\n\n${renderChangeNote(tool.changes)}`;
  return text.endsWith(note) ? text.slice(0, -note.length) : text;
}

/** A write or edit that ran, or a command whose changes the journal recorded. */
export function canRevert(tool: ToolItem): boolean {
  if (tool.result === undefined || tool.status === 'refused' || tool.status === 'running')
    return false;
  if (FILE_TOOLS.has(tool.name)) return tool.status === 'done';
  return tool.changes?.kind === 'tracked' && tool.changes.revertable;
}
