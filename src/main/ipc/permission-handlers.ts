// The open project's mode, network setting, "always" rules and active grants, as the Settings
// view shows and edits them. The store and the grant book are the same instances the agent uses.
import { createHash } from 'node:crypto';
import type { NetworkSetting, PermissionsInfo, RuleInfo, WorkspaceInfo } from '../../shared/api';
import type { PermissionMode, SandboxState } from '../../shared/tool-types';
import type { GrantBook } from '../permissions/grant-book';
import { MODE_LABELS } from '../../shared/mode-labels';
import { describeRule, ruleKey, type PermissionRule } from '../permissions/permission-rule';
import { withoutRule, type PermissionsStore } from '../permissions/project-permissions-store';
import type { TandemHandlers } from './handler-types';
import {
  autonomousConfirmation,
  networkConfirmation,
  type Confirm,
  type ConfirmRequest,
} from './setting-confirmation';

export interface PermissionHandlerDeps {
  readonly permissions: PermissionsStore;
  readonly grants: GrantBook;
  readonly sandboxState: () => SandboxState | Promise<SandboxState>;
  /** The folder open in main right now. */
  readonly workspace: () => WorkspaceInfo | null;
  /** The session whose "for this session" grants are shown (the latest run's). */
  readonly sessionId: () => string | null;
  /** The mode changed: tell the window (status bar) about the workspace. */
  readonly onModeChanged: (workspace: WorkspaceInfo) => void;
  /** Main's own dialog, asked before Autonomous mode or the network is turned on. */
  readonly confirm: Confirm;
}

export type PermissionHandlers = Pick<
  TandemHandlers,
  'setMode' | 'getPermissions' | 'setNetwork' | 'deleteRule' | 'revokeGrant'
>;

export const NO_FOLDER_MESSAGE = 'Open a folder first: modes and rules belong to a project.';

/** A rule's id comes from its content, so deleting by id never hits a rule that moved. */
export function ruleId(rule: PermissionRule): string {
  const what = JSON.stringify(ruleKey(rule));
  return `rule-${createHash('sha256').update(what).digest('hex').slice(0, 16)}`;
}

const NETWORK_LABELS: Readonly<Record<NetworkSetting, string>> = {
  off: 'Off',
  ask: 'Ask',
  allow: 'Allow',
};

function autonomousRefusal(sandbox: SandboxState): string {
  return (
    `${MODE_LABELS.autonomous} mode needs a sandbox for commands, and this machine has none ` +
    `(${sandbox.description}). Choose another mode.`
  );
}

/** Told to the window when the person said no in main's dialog; the setting stays as it was. */
export function declinedMessage(what: string, kept: string): string {
  return `${what} was not confirmed in Tandem's dialog; ${kept}.`;
}

export const FOLDER_CHANGED_WHILE_ASKING =
  'Another folder was opened while Tandem was asking; nothing was changed.';

export function createPermissionHandlers(deps: PermissionHandlerDeps): PermissionHandlers {
  function requireFolder(): WorkspaceInfo {
    const workspace = deps.workspace();
    if (!workspace) throw new Error(NO_FOLDER_MESSAGE);
    return workspace;
  }

  /** Throws the declined message unless the person says yes; the window cannot skip this. */
  async function confirmOrThrow(
    workspace: WorkspaceInfo,
    request: ConfirmRequest,
    declined: string,
  ): Promise<void> {
    if (!(await deps.confirm(request))) throw new Error(declined);
    // The yes was for the folder the dialog named, and only for it.
    if (deps.workspace()?.folder !== workspace.folder) throw new Error(FOLDER_CHANGED_WHILE_ASKING);
  }

  async function describe(folder: string): Promise<PermissionsInfo> {
    const [stored, sandbox] = await Promise.all([
      deps.permissions.load(folder),
      deps.sandboxState(),
    ]);
    const rules: RuleInfo[] = stored.rules.map((r) => ({
      id: ruleId(r.rule),
      kind: r.rule.kind,
      description: describeRule(r.rule),
      note: r.note ?? null,
      createdAt: r.createdAt,
      lastUsedAt: deps.grants.ruleLastUsed(folder, r.rule),
    }));
    const grants = deps.grants.active(folder, deps.sessionId()).map((g) => ({
      id: g.id,
      kind: g.scope.kind,
      description: describeRule(g.rule),
      grantedAt: g.grantedAt,
      expiresAt: g.scope.kind === 'until' ? g.scope.expiresAt : null,
      lastUsedAt: g.lastUsedAt,
    }));
    return { folder, mode: stored.mode, network: stored.network, sandbox, rules, grants };
  }

  return {
    async setMode(mode: PermissionMode) {
      const workspace = requireFolder();
      if (mode === 'autonomous') {
        const sandbox = await deps.sandboxState();
        if (!sandbox.available) throw new Error(autonomousRefusal(sandbox));
        const before = await deps.permissions.load(workspace.folder);
        if (before.mode !== 'autonomous') {
          await confirmOrThrow(
            workspace,
            autonomousConfirmation(workspace, sandbox),
            declinedMessage(
              `${MODE_LABELS.autonomous} mode`,
              `the mode stays ${MODE_LABELS[before.mode]}`,
            ),
          );
        }
      }
      // Loaded after the dialog: whatever changed while it was open is kept.
      const stored = await deps.permissions.load(workspace.folder);
      await deps.permissions.save(workspace.folder, { ...stored, mode });
      const changed: WorkspaceInfo = { ...workspace, mode };
      deps.onModeChanged(changed);
      return changed;
    },
    async getPermissions() {
      const workspace = deps.workspace();
      return workspace ? describe(workspace.folder) : null;
    },
    async setNetwork(network) {
      const workspace = requireFolder();
      const { folder } = workspace;
      if (network === 'allow') {
        const before = await deps.permissions.load(folder);
        if (before.network !== 'allow') {
          await confirmOrThrow(
            workspace,
            networkConfirmation(workspace),
            declinedMessage(
              'Allowing the network',
              `the network setting stays ${NETWORK_LABELS[before.network]}`,
            ),
          );
        }
      }
      const stored = await deps.permissions.load(folder);
      await deps.permissions.save(folder, { ...stored, network });
      return describe(folder);
    },
    async deleteRule(id) {
      const { folder } = requireFolder();
      const stored = await deps.permissions.load(folder);
      const found = stored.rules.find((r) => ruleId(r.rule) === id);
      if (!found)
        throw new Error('That rule is no longer stored (it may have been deleted already).');
      await deps.permissions.save(folder, withoutRule(stored, found.rule));
      return describe(folder);
    },
    async revokeGrant(id) {
      const { folder } = requireFolder();
      const known = deps.grants.active(folder, deps.sessionId()).some((g) => g.id === id);
      if (!known || !deps.grants.revoke(id)) {
        throw new Error('That grant is no longer active (it may have expired or been revoked).');
      }
      return describe(folder);
    },
  };
}
