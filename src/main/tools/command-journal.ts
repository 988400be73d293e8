// Shell commands are journaled like edits (DESIGN.md §4, issue 4): before an approved command that
// may write, the change tracker brings its index up to date and puts the command's intent in the
// journal; afterwards the result says what changed on disk, as data (`changes`, which the window
// draws) and as a note for the model rendered from that data, and `revert(callId)` can undo it.
import { renderChangeNote, type ChangeReport } from '../../shared/change-report';
import type { SnapshotResult } from '../workspace/change-tracker';
import type { AnyTool, ToolContext, ToolReturn } from './tool';

/** The part of the change tracker this wrapper needs (the real one is ChangeTracker). */
export interface CommandSnapshots {
  snapshotBefore(callId: string): Promise<SnapshotResult>;
  changesSince(callId: string): Promise<ChangeReport>;
}

export interface CommandJournalOptions {
  readonly snapshots: CommandSnapshots;
  /** True when the command runs with the project read-only: no snapshot is needed. */
  readonly isReadOnly: (command: string, ctx: ToolContext) => Promise<boolean>;
}

/** Wraps an exec tool whose arguments carry `command`, adding before/after snapshots. */
export function withCommandJournal(tool: AnyTool, options: CommandJournalOptions): AnyTool {
  return {
    ...tool,
    async execute(args, ctx): Promise<ToolReturn> {
      const command = commandOf(args);
      const journaled = command !== undefined && !(await options.isReadOnly(command, ctx));
      const before = journaled ? await options.snapshots.snapshotBefore(ctx.callId) : undefined;
      let changes: ChangeReport | undefined;
      let result: string | ToolReturn;
      try {
        result = await tool.execute(args, ctx);
      } finally {
        // Even a failed or stopped command may have changed files: always look.
        if (before?.ok) changes = await options.snapshots.changesSince(ctx.callId);
      }
      if (before && !before.ok) changes = { kind: 'not-tracked', reason: before.reason };
      const text = typeof result === 'string' ? result : result.output;
      const isError = typeof result === 'string' ? false : result.isError === true;
      // The command's own word on outside content (it ran with the network on) is kept.
      const outside = typeof result === 'string' ? undefined : result.outsideContent;
      return {
        output: changes ? `${text}\n\n${renderChangeNote(changes)}` : text,
        isError,
        ...(changes ? { changes } : {}),
        ...(outside !== undefined ? { outsideContent: outside } : {}),
      };
    },
  };
}

function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const command = (args as { command?: unknown }).command;
  return typeof command === 'string' ? command : undefined;
}
