// Which servers a session of one folder starts: the app's own (from Settings), servers named on
// the command line, and the project's `.mcp.json` once accepted, each with the person's choices.
// A name used twice keeps the first (command line, then app, then project) and reports the rest.
import {
  DEFAULT_MCP_CHOICES,
  type McpServerChoices,
  type ProjectMcpStatus,
} from '../../shared/mcp-types';
import { choicesOrDefault } from './mcp-choices';
import { parseMcpConfig, type NamedServerSpec } from './mcp-config';
import type { McpServerEntry } from './mcp-connection';
import type { McpSettingsStore } from './mcp-stores';
import { readProjectMcpFile } from './project-mcp-file';

export interface McpServerList {
  readonly entries: readonly McpServerEntry[];
  readonly project: ProjectMcpStatus;
  readonly problems: readonly string[];
}

export interface CommandLineServers {
  readonly servers: readonly NamedServerSpec[];
  readonly choices: (name: string) => McpServerChoices;
}

/** The project's servers that would run as the project's: an app server's name comes first. */
export async function projectServersRunning(
  store: McpSettingsStore,
  servers: readonly NamedServerSpec[],
): Promise<readonly NamedServerSpec[]> {
  const app = await store.loadApp();
  return servers.filter((server) => !Object.hasOwn(app.servers, server.name));
}

/** `folder` null: no project is open, so only the app's and the command line's servers. */
export async function collectMcpServers(
  store: McpSettingsStore,
  folder: string | null,
  cli?: CommandLineServers,
): Promise<McpServerList> {
  const problems: string[] = [];
  const entries: McpServerEntry[] = [];
  const add = (entry: McpServerEntry): void => {
    const first = entries.find((e) => e.name === entry.name);
    if (first) {
      problems.push(
        `${entry.source} server "${entry.name}" left out: a ${first.source} server has the same name`,
      );
      return;
    }
    entries.push(entry);
  };

  for (const server of cli?.servers ?? []) {
    add({
      ...server,
      source: 'cli',
      choices: cli?.choices(server.name) ?? DEFAULT_MCP_CHOICES,
    });
  }

  const app = await store.loadApp();
  for (const [name, stored] of Object.entries(app.servers)) {
    const parsed = parseMcpConfig({ [name]: stored.config }, 'Settings');
    if ('error' in parsed) problems.push(parsed.error);
    else {
      problems.push(...parsed.problems.map((p) => `Settings: ${p}`));
      for (const server of parsed.servers)
        add({ ...server, source: 'app', choices: stored.choices });
    }
  }

  if (folder === null) return { entries, project: { kind: 'none' }, problems };
  const projectSettings = await store.loadProject(folder);
  const file = await readProjectMcpFile(folder, projectSettings.acceptedHash);
  if (file.status.kind === 'accepted') {
    for (const server of file.servers) {
      add({
        ...server,
        source: 'project',
        choices: choicesOrDefault(projectSettings.choices, server.name),
      });
    }
  }
  return { entries, project: file.status, problems };
}
