// The subcommands of `tandem`, as a table: adding one is adding a file and a row. A row names the
// command and says what it does; its module is loaded only when that command runs, so `--help`,
// `--version` and one command never pay for the others (the agent, the provider SDK, the parser).
import type { CliDeps, CliIo } from './cli-io';

/** What a command module exports: argv after the command name in, exit code out. */
export type CommandMain = (argv: readonly string[], io: CliIo, deps: CliDeps) => Promise<number>;

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  load(): Promise<CommandMain>;
}

export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'run',
    summary: 'run one task in a project folder, asking before every change',
    load: async () => (await import('./run-command')).runCommand,
  },
  {
    name: 'sessions',
    summary: "list a project's sessions (id, time, status, first task)",
    load: async () => (await import('./sessions-command')).sessionsCommand,
  },
  {
    name: 'undo',
    summary: 'revert the file changes of a call or a run',
    load: async () => (await import('./undo-command')).undoCommand,
  },
  {
    name: 'policy',
    summary: 'show what the permission engine decides for a command or a path, and why',
    load: async () => (await import('./policy-command')).policyCliCommand,
  },
  {
    name: 'mcp',
    summary: "list a folder's MCP servers and tools, or accept its .mcp.json",
    load: async () => (await import('./mcp-command')).mcpCommand,
  },
];
