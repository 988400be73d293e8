// The one list of built-in tools: files, fetch and shell. MCP tools join the same registry later.
import { classifyCommand } from '../shell/command-classifier';
import { defaultBasis } from '../shell/sandbox-access';
import { createFileTools } from './files';
import { fetchUrlTool } from './fetch-url';
import { withCommandJournal, type CommandSnapshots } from './command-journal';
import { createShellTool, type ShellToolOptions } from './shell-tool';
import type { AnyTool, ToolContext } from './tool';

export interface BuiltinToolOptions {
  readonly shell?: ShellToolOptions;
  /** When present, commands that may write are snapshotted so their changes show and revert. */
  readonly commandSnapshots?: CommandSnapshots;
}

export function createBuiltinTools(options: BuiltinToolOptions = {}): AnyTool[] {
  const shell = createShellTool(options.shell);
  const snapshots = options.commandSnapshots;
  return [
    ...createFileTools(),
    fetchUrlTool,
    snapshots
      ? withCommandJournal(shell, {
          snapshots,
          isReadOnly: runsReadOnly,
        })
      : shell,
  ];
}

/**
 * Whether the shell runs `command` with the project read-only (then it cannot change files and
 * needs no snapshot): by the basis the gate gave the call, or, without a gate, by the classifier's
 * verdict, exactly as the shell tool decides.
 */
export async function runsReadOnly(command: string, ctx: ToolContext): Promise<boolean> {
  const basis = ctx.permit?.basis ?? defaultBasis(await classifyCommand(command, ctx.folder));
  return basis === 'read-only';
}
