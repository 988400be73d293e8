// `--mcp-config FILE` (the `mcpServers` shape) and the person's choices for its servers, given as
// repeatable flags: `--mcp-trust NAME`, `--mcp-write NAME`, `--mcp-network NAME`. Shared by
// `tandem run` and `tandem mcp list`.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_MCP_CHOICES, type McpServerChoices } from '../shared/mcp-types';
import { parseMcpConfigText } from '../main/mcp/mcp-config';
import type { CommandLineServers } from '../main/mcp/mcp-server-list';
import { CliFailure, EXIT } from './cli-io';

export const MCP_FLAG_OPTIONS = {
  'mcp-config': { type: 'string' },
  'mcp-trust': { type: 'string', multiple: true },
  'mcp-write': { type: 'string', multiple: true },
  'mcp-network': { type: 'string', multiple: true },
} as const;

export const MCP_FLAG_USAGE = `  --mcp-config FILE    MCP servers in the "mcpServers" shape (stdio: command/args/env/cwd; url/headers)
  --mcp-trust NAME     trust that server's annotations: its read-only tools run without asking
  --mcp-write NAME     let that (sandboxed) server write the project folder
  --mcp-network NAME   let that (sandboxed) server reach the network`;

export interface McpFlagValues {
  readonly 'mcp-config'?: string | undefined;
  readonly 'mcp-trust'?: string[] | undefined;
  readonly 'mcp-write'?: string[] | undefined;
  readonly 'mcp-network'?: string[] | undefined;
}

export interface CliMcpServers {
  readonly servers: CommandLineServers | undefined;
  /** Problems of the file's entries (left out, ignored keys), for stderr. */
  readonly problems: readonly string[];
}

/** The checks that need no file: run while parsing flags, before anything is opened. */
export function checkMcpFlags(values: McpFlagValues): void {
  if (values['mcp-config'] === '') {
    throw new CliFailure('--mcp-config must name a file', EXIT.usage);
  }
  if (values['mcp-config'] === undefined && namedServers(values).length > 0) {
    throw new CliFailure(
      '--mcp-trust, --mcp-write and --mcp-network need --mcp-config',
      EXIT.usage,
    );
  }
}

function namedServers(values: McpFlagValues): string[] {
  return [
    ...(values['mcp-trust'] ?? []),
    ...(values['mcp-write'] ?? []),
    ...(values['mcp-network'] ?? []),
  ];
}

export async function readCliMcpServers(
  values: McpFlagValues,
  cwd: string,
): Promise<CliMcpServers> {
  checkMcpFlags(values);
  const file = values['mcp-config'];
  if (file === undefined) return { servers: undefined, problems: [] };
  const named = namedServers(values);
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliFailure(
      `cannot read --mcp-config ${path}: ${(error as Error).message}`,
      EXIT.setup,
    );
  }
  const parsed = parseMcpConfigText(text, path);
  if ('error' in parsed) throw new CliFailure(parsed.error, EXIT.setup);
  const names = new Set(parsed.servers.map((s) => s.name));
  const unknown = named.filter((name) => !names.has(name));
  if (unknown.length > 0) {
    throw new CliFailure(
      `no server named ${unknown.map((n) => `"${n}"`).join(', ')} in ${path}`,
      EXIT.usage,
    );
  }
  const choices = (name: string): McpServerChoices => ({
    trusted: values['mcp-trust']?.includes(name) ?? DEFAULT_MCP_CHOICES.trusted,
    projectAccess: values['mcp-write']?.includes(name) ? 'read-write' : 'read-only',
    network: values['mcp-network']?.includes(name) ?? DEFAULT_MCP_CHOICES.network,
  });
  return { servers: { servers: parsed.servers, choices }, problems: parsed.problems };
}
