// The subcommands of `tandem`, as a table: adding one is adding a file and a row.
import type { CliDeps, CliIo } from './cli-io';
import { mcpCommand } from './mcp-command';
import { policyCliCommand } from './policy-command';
import { runCommand } from './run-command';
import { sessionsCommand } from './sessions-command';
import { undoCommand } from './undo-command';

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: readonly string[], io: CliIo, deps: CliDeps): Promise<number>;
}

export const COMMANDS: readonly CliCommand[] = [
  runCommand,
  sessionsCommand,
  undoCommand,
  policyCliCommand,
  mcpCommand,
];
