// The one list of built-in tools: files, fetch and shell. MCP tools join the same registry later.
import { classifyCommandLazily } from '../shell/lazy-classifier';
import { createFileTools } from './files';
import { fetchUrlTool } from './fetch-url';
import { withCommandJournal, type CommandSnapshots } from './command-journal';
import { createShellTool, type ShellToolOptions } from './shell-tool';
import type { AnyTool } from './tool';

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
          isReadOnly: async (command, folder) =>
            (await classifyCommandLazily(command, folder)).safe,
        })
      : shell,
  ];
}
