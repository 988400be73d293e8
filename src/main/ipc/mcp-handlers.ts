// MCP servers in Settings: the overview, adding and removing the app's servers, the person's
// choices per server, accepting the project's `.mcp.json`, restarting a server, and allowing a
// whole server. Every change that lets more run is confirmed in main's own dialog first.
import { basename } from 'node:path';
import type { WorkspaceInfo } from '../../shared/api';
import { DEFAULT_MCP_CHOICES } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { wideningsOf } from '../mcp/mcp-choices';
import { parseMcpConfigText, proposedServer } from '../mcp/mcp-config';
import type { McpHost } from '../mcp/mcp-host';
import { describeStaleRules, staleServerRules } from '../mcp/stale-server-rules';
import { describeServerSandbox } from '../mcp/stdio-launch';
import type { GrantBook } from '../permissions/grant-book';
import type { PermissionRule } from '../permissions/permission-rule';
import { withRule, type PermissionsStore } from '../permissions/project-permissions-store';
import type { TandemHandlers } from './handler-types';
import {
  addServersConfirmation,
  allowServerConfirmation,
  choicesConfirmation,
  projectServersConfirmation,
} from './mcp-confirmation';
import type { Confirm, ConfirmRequest } from './setting-confirmation';

export interface McpHandlerDeps {
  readonly host: McpHost;
  readonly confirm: Confirm;
  readonly sandboxState: () => SandboxState | Promise<SandboxState>;
  readonly workspace: () => WorkspaceInfo | null;
  readonly sessionId: () => string | null;
  readonly permissions: PermissionsStore;
  readonly grants: GrantBook;
}

export type McpMethod =
  | 'getMcpOverview'
  | 'addMcpServers'
  | 'removeMcpServer'
  | 'setMcpServerChoices'
  | 'acceptProjectMcp'
  | 'revokeProjectMcp'
  | 'restartMcpServer'
  | 'allowMcpServer';

export type McpHandlers = Pick<TandemHandlers, McpMethod>;

export function createMcpHandlers(deps: McpHandlerDeps): McpHandlers {
  const { host } = deps;

  async function confirmOrThrow(request: ConfirmRequest, declined: string): Promise<void> {
    const folder = deps.workspace()?.folder ?? null;
    if (!(await deps.confirm(request))) throw new Error(declined);
    // The yes was for the folder the dialog was asked in, and only for it.
    if ((deps.workspace()?.folder ?? null) !== folder) {
      throw new Error('Another folder was opened while Tandem was asking; nothing was changed.');
    }
  }

  function requireFolder(): WorkspaceInfo {
    const workspace = deps.workspace();
    if (!workspace) throw new Error('Open a project folder first.');
    return workspace;
  }

  async function serverOf(name: string) {
    const overview = await host.overview();
    const server = overview.servers.find((s) => s.name === name);
    if (!server) throw new Error(`There is no MCP server "${name}" here.`);
    return server;
  }

  return {
    getMcpOverview: () => host.overview(),

    async addMcpServers(text) {
      const parsed = parseMcpConfigText(text, 'The pasted text');
      if ('error' in parsed) throw new Error(parsed.error);
      if (parsed.servers.length === 0) {
        throw new Error(`No server could be read: ${parsed.problems.join('; ') || 'none given'}.`);
      }
      const sandbox = describeServerSandbox(await deps.sandboxState(), DEFAULT_MCP_CHOICES);
      await confirmOrThrow(
        addServersConfirmation(
          parsed.servers.map((server) => proposedServer(server, 'names')),
          sandbox,
        ),
        'Adding the servers was not confirmed in Tandem’s dialog; nothing was added.',
      );
      await host.addAppServers(text);
      return host.overview();
    },

    async removeMcpServer(name) {
      await host.removeAppServer(name);
      return host.overview();
    },

    async setMcpServerChoices(source, name, choices) {
      const before = await host.choicesOf(source, name);
      const widened = wideningsOf(before, choices);
      if (widened.length > 0) {
        await confirmOrThrow(
          choicesConfirmation(name, widened, choices),
          `The change for "${name}" was not confirmed in Tandem’s dialog; it stays as it was.`,
        );
      }
      await host.setChoices(source, name, choices);
      return host.overview();
    },

    async acceptProjectMcp(hash) {
      const workspace = requireFolder();
      const overview = await host.overview();
      const project = overview.project;
      if (project.kind !== 'pending' && project.kind !== 'accepted') {
        throw new Error('This project has no .mcp.json to accept.');
      }
      if (project.hash !== hash) {
        throw new Error('.mcp.json changed after it was shown; review it again before accepting.');
      }
      const servers = await host.projectServersFor(hash);
      const stale = staleServerRules(
        servers,
        (await deps.permissions.load(workspace.folder)).rules,
        deps.grants.ofFolder(workspace.folder),
      );
      const sandbox = describeServerSandbox(await deps.sandboxState(), DEFAULT_MCP_CHOICES);
      await confirmOrThrow(
        projectServersConfirmation(
          workspace.name || basename(workspace.folder),
          project.servers,
          sandbox,
          project.changed,
          describeStaleRules(stale.stale),
        ),
        'The project’s MCP servers were not confirmed in Tandem’s dialog; none was started.',
      );
      // The host checks the hash against the file once more: what starts is what was shown.
      await host.acceptProject(hash);
      // The policy already ignores them for the new definition; removing them keeps Settings true.
      const stored = await deps.permissions.load(workspace.folder);
      const kept = stored.rules.filter(stale.keepRule);
      if (kept.length !== stored.rules.length) {
        await deps.permissions.save(workspace.folder, { ...stored, rules: kept });
      }
      for (const grant of deps.grants.ofFolder(workspace.folder)) {
        if (!stale.keepGrant(grant)) deps.grants.revoke(grant.id);
      }
      return host.overview();
    },

    async revokeProjectMcp() {
      requireFolder();
      await host.revokeProject();
      return host.overview();
    },

    async restartMcpServer(name) {
      await host.restartServer(name);
      return host.overview();
    },

    async allowMcpServer(name, scope) {
      const workspace = requireFolder();
      await serverOf(name);
      const sessionId = deps.sessionId();
      if (scope === 'session' && sessionId === null) {
        throw new Error('Start a task first: "for this session" belongs to a running session.');
      }
      await confirmOrThrow(
        allowServerConfirmation(name, scope, workspace.name),
        `Allowing every tool of "${name}" was not confirmed in Tandem’s dialog.`,
      );
      const definition = host.serverDefinitionOf(name);
      if (definition === undefined) throw new Error(`There is no MCP server "${name}" here.`);
      // Bound to what runs now: another program under this name later is not allowed by it.
      const rule: PermissionRule = { kind: 'mcp-server', server: name, definition };
      if (scope === 'always') {
        const stored = await deps.permissions.load(workspace.folder);
        await deps.permissions.save(workspace.folder, withRule(stored, rule, Date.now()));
      } else if (sessionId !== null) {
        deps.grants.add({
          folder: workspace.folder,
          rule,
          effect: 'exec',
          scope: { kind: 'session', sessionId },
        });
      }
      return host.overview();
    },
  };
}
