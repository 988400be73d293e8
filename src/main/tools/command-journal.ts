// Shell commands are journaled like edits (DESIGN.md §4, issue 4): before an approved command that
// may write, the folder is snapshotted into the shadow repository; afterwards the result says what
// changed on disk ("3 files changed, +12 −4", with diffs), and `revert(callId)` can undo it.
import type { ChangesResult, SnapshotResult } from '../workspace/shadow-snapshot';
import { renderChanges } from '../workspace/command-changes';
import type { AnyTool, ToolReturn } from './tool';

/** The part of the shadow snapshot this wrapper needs (the real one is ShadowSnapshot). */
export interface CommandSnapshots {
  snapshotBefore(callId: string): Promise<SnapshotResult>;
  changesSince(callId: string): Promise<ChangesResult>;
}

export interface CommandJournalOptions {
  readonly snapshots: CommandSnapshots;
  /** True when the command cannot write (the classifier's verdict): no snapshot is needed. */
  readonly isReadOnly: (command: string, folder: string) => Promise<boolean>;
}

/** Wraps an exec tool whose arguments carry `command`, adding before/after snapshots. */
export function withCommandJournal(tool: AnyTool, options: CommandJournalOptions): AnyTool {
  return {
    ...tool,
    async execute(args, ctx) {
      const command = commandOf(args);
      const journaled = command !== undefined && !(await options.isReadOnly(command, ctx.folder));
      const before = journaled ? await options.snapshots.snapshotBefore(ctx.callId) : undefined;
      let changes: ChangesResult | undefined;
      let result: string | ToolReturn;
      try {
        result = await tool.execute(args, ctx);
      } finally {
        // Even a failed or stopped command may have changed files: always look.
        if (before?.ok) changes = await options.snapshots.changesSince(ctx.callId);
      }
      const text = typeof result === 'string' ? result : result.output;
      const isError = typeof result === 'string' ? false : result.isError === true;
      const note = describe(before, changes);
      return { output: note ? `${text}\n\n${note}` : text, isError };
    },
  };
}

function describe(
  before: SnapshotResult | undefined,
  changes: ChangesResult | undefined,
): string | undefined {
  if (!before) return undefined;
  if (!before.ok) return `Changes on disk: not tracked (${before.reason})`;
  if (!changes) return undefined;
  if (!changes.ok) return `Changes on disk: unknown (${changes.reason})`;
  if (changes.files.length === 0) return 'Changes on disk: none.';
  return `Changes on disk (can be reverted): ${renderChanges(changes)}`;
}

function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const command = (args as { command?: unknown }).command;
  return typeof command === 'string' ? command : undefined;
}
