// The questions main asks in its own dialog before an MCP change that lets more run: a server
// added to Tandem, a project's `.mcp.json` accepted, a server trusted or given the project or the
// network, every tool of a server allowed. A compromised window can ask for each; only the
// person's click in main's dialog makes it. Command lines are shown exactly, with hidden
// characters made visible, so the dialog cannot be made to show one command and start another.
import type { McpProposedServer, McpSandboxInfo, McpServerChoices } from '../../shared/mcp-types';
import { visibleText } from '../../shared/visible-text';
import type { ConfirmRequest } from './setting-confirmation';

const ASKED_HERE =
  'Tandem asks this itself, outside its window. Say yes only if you just asked for this change.';

function shown(text: string): string {
  return visibleText(text, { layout: 'inline' });
}

export function describeServers(
  servers: readonly McpProposedServer[],
  sandbox: McpSandboxInfo,
): string {
  const lines = servers.map((s) => {
    const details = [
      s.cwd !== null ? `in ${shown(s.cwd)}` : null,
      s.environment.length > 0 ? `environment: ${s.environment.map(shown).join(' ')}` : null,
      s.headerNames.length > 0 ? `headers: ${s.headerNames.map(shown).join(', ')}` : null,
    ].filter((d): d is string => d !== null);
    return `• ${shown(s.name)}: ${shown(s.commandLine)}${details.length ? `\n   (${details.join('; ')})` : ''}`;
  });
  const local = servers.some((s) => s.transport === 'stdio');
  return `${lines.join('\n')}${local ? `\n\nLocal servers: ${sandbox.description}` : ''}`;
}

export function addServersConfirmation(
  servers: readonly McpProposedServer[],
  sandbox: McpSandboxInfo,
): ConfirmRequest {
  const count = servers.length === 1 ? 'this MCP server' : `these ${servers.length} MCP servers`;
  return {
    title: 'Add MCP servers?',
    message: `Add ${count} to Tandem? They start in every project you open.`,
    detail: `${describeServers(servers, sandbox)}\n\nTheir tools ask before they run until you allow them.\n\n${ASKED_HERE}`,
    confirmLabel: 'Add servers',
  };
}

export function projectServersConfirmation(
  folderName: string,
  servers: readonly McpProposedServer[],
  sandbox: McpSandboxInfo,
  changed: boolean,
  /** Rules and grants given for another definition of a server's name, which go (in words). */
  removals: readonly string[] = [],
): ConfirmRequest {
  const removed =
    removals.length > 0 ? `\n\n${removals.map((r) => `• ${shown(r)}.`).join('\n')}` : '';
  return {
    title: changed ? "This project's MCP servers changed" : "Use this project's MCP servers?",
    message:
      `Start the MCP servers that "${shown(folderName)}"'s .mcp.json ${changed ? 'now ' : ''}names? ` +
      'A project file can name any program.',
    detail: `${describeServers(servers, sandbox)}${removed}\n\nIf the file changes, Tandem asks again.\n\n${ASKED_HERE}`,
    confirmLabel: 'Start these servers',
  };
}

export function choicesConfirmation(
  name: string,
  widened: readonly string[],
  after: McpServerChoices,
): ConfirmRequest {
  return {
    title: 'Let this MCP server do more?',
    message: `Change what the MCP server "${shown(name)}" may do?`,
    detail:
      `After this change:\n${widened.map((w) => `• ${w}`).join('\n')}\n\n` +
      `It will be ${after.trusted ? 'trusted' : 'not trusted'}, with the project ` +
      `${after.projectAccess}, network ${after.network ? 'allowed' : 'off'}.\n\n${ASKED_HERE}`,
    confirmLabel: 'Allow',
  };
}

export function allowServerConfirmation(
  name: string,
  scope: 'session' | 'always',
  folderName: string,
): ConfirmRequest {
  const when =
    scope === 'session' ? 'for the rest of this session' : `always, in "${shown(folderName)}"`;
  return {
    title: 'Allow every tool of this MCP server?',
    message: `Run every tool of the MCP server "${shown(name)}" without asking, ${when}?`,
    detail:
      'This covers the tools it offers now and any it adds later, whatever they do. ' +
      (scope === 'session'
        ? 'It pauses once the conversation takes in outside content.'
        : 'You can delete the rule in Settings.') +
      `\n\n${ASKED_HERE}`,
    confirmLabel: 'Allow every tool',
  };
}
