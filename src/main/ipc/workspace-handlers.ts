// Opening folders: the chooser, explicit paths, the recent list.
import { basename } from 'node:path';
import type { WorkspaceInfo } from '../../shared/api';
import type { PermissionMode } from '../../shared/tool-types';
import type { TandemHandlers } from './handler-types';
import { resolveProjectFolder } from './open-folder';
import type { RecentFolders } from './recent-folders';

export interface WorkspaceHandlerDeps {
  /** Shows the OS folder picker; resolves null when the person cancels. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly recent: RecentFolders;
  readonly modeFor: (realFolder: string) => PermissionMode | Promise<PermissionMode>;
  /** Called after a folder is open (and remembered). */
  readonly onOpened: (workspace: WorkspaceInfo) => void | Promise<void>;
}

export function createWorkspaceHandlers(
  deps: WorkspaceHandlerDeps,
): Pick<TandemHandlers, 'openFolder' | 'chooseFolder' | 'recentFolders'> {
  async function openFolder(folder: string): Promise<WorkspaceInfo> {
    const real = await resolveProjectFolder(folder);
    const workspace: WorkspaceInfo = {
      folder: real,
      name: basename(real) || real,
      mode: await deps.modeFor(real),
    };
    await deps.recent.remember(real);
    await deps.onOpened(workspace);
    return workspace;
  }

  return {
    openFolder,
    async chooseFolder() {
      const chosen = await deps.chooseFolder();
      return chosen === null ? null : openFolder(chosen);
    },
    recentFolders: () => deps.recent.list(),
  };
}
