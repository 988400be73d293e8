// Opening folders: the chooser, explicit paths, the recent list. The window is not trusted to name
// a folder (DESIGN.md §1): a folder opens only when the person chose it in the native dialog, or
// it is in the recent list that such choices built. Every folder, chosen or listed, must also pass
// the project folder rules (never /, the home folder, a system folder or Tandem's own data).
import { basename } from 'node:path';
import type { WorkspaceInfo } from '../../shared/api';
import type { PermissionMode } from '../../shared/tool-types';
import type { TandemHandlers } from './handler-types';
import { resolveProjectFolder, type ProjectFolderPolicy } from './open-folder';
import type { RecentFolders } from './recent-folders';

export interface WorkspaceHandlerDeps {
  /** Shows the OS folder picker; resolves null when the person cancels. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly recent: RecentFolders;
  readonly folderPolicy: ProjectFolderPolicy;
  readonly modeFor: (realFolder: string) => PermissionMode | Promise<PermissionMode>;
  /** Called after a folder is open (and remembered). */
  readonly onOpened: (workspace: WorkspaceInfo) => void | Promise<void>;
}

export function notChosenMessage(folder: string): string {
  return (
    `Cannot open "${folder}": Tandem opens only folders you chose in its folder dialog ` +
    '(or from the recent list those choices made). Use "Choose a folder" to open it.'
  );
}

export function createWorkspaceHandlers(
  deps: WorkspaceHandlerDeps,
): Pick<TandemHandlers, 'openFolder' | 'chooseFolder' | 'recentFolders'> {
  /** The stored list judged again: an entry that no longer passes the rules is left out. */
  async function admittedRecent(): Promise<string[]> {
    const listed = await deps.recent.list();
    const judged = await Promise.all(
      listed.map((f) => resolveProjectFolder(f, deps.folderPolicy).catch(() => null)),
    );
    return [...new Set(judged.filter((f): f is string => f !== null))];
  }

  async function open(real: string): Promise<WorkspaceInfo> {
    const workspace: WorkspaceInfo = {
      folder: real,
      name: basename(real) || real,
      mode: await deps.modeFor(real),
    };
    await deps.onOpened(workspace);
    return workspace;
  }

  return {
    async openFolder(folder) {
      const real = await resolveProjectFolder(folder, deps.folderPolicy);
      if (!(await admittedRecent()).includes(real)) throw new Error(notChosenMessage(folder));
      await deps.recent.touch(real);
      return open(real);
    },
    async chooseFolder() {
      const chosen = await deps.chooseFolder();
      if (chosen === null) return null;
      const real = await resolveProjectFolder(chosen, deps.folderPolicy);
      await deps.recent.remember(real);
      return open(real);
    },
    recentFolders: admittedRecent,
  };
}
