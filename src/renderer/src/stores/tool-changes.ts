// What a finished tool card can offer about files: the change summary a command's result carries
// ("Changes on disk (can be reverted): …", appended by the command journal) and whether the call
// can be undone from the window.
import type { TraceItem } from './trace-model';

type ToolItem = Extract<TraceItem, { kind: 'tool' }>;

const CHANGES_MARKER = 'Changes on disk';
const REVERTABLE_MARKER = 'Changes on disk (can be reverted):';
const FILE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** The result split into what the command printed and the journal's note about changes. */
export function splitChangeSummary(result: string): {
  readonly text: string;
  readonly changes: string | null;
} {
  const at = result.lastIndexOf(`\n\n${CHANGES_MARKER}`);
  const start = at >= 0 ? at + 2 : result.startsWith(CHANGES_MARKER) ? 0 : -1;
  if (start < 0) return { text: result, changes: null };
  return { text: result.slice(0, Math.max(0, start - 2)), changes: result.slice(start).trim() };
}

/** A write or edit that ran, or a command whose journal recorded changes. */
export function canRevert(tool: ToolItem): boolean {
  if (tool.result === undefined || tool.status === 'refused' || tool.status === 'running')
    return false;
  if (FILE_TOOLS.has(tool.name)) return tool.status === 'done';
  return splitChangeSummary(tool.result).changes?.startsWith(REVERTABLE_MARKER) === true;
}
