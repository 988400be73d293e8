// The app's PermissionsStore: each project's mode, network setting and rules, kept by electron-store
// in userData/permissions.json under the project's key. Same schema, version and migration as the
// CLI's JSON file store; a corrupt value is reported, never silently reset.
import Store from 'electron-store';
import {
  DEFAULT_PERMISSIONS,
  migratePermissions,
  projectPermissionsSchema,
  type PermissionsStore,
  type ProjectPermissions,
} from '../permissions/project-permissions-store';
import { projectKey } from './data-dir';

export function createElectronPermissionsStore(): PermissionsStore {
  let store: Store<Record<string, unknown>> | undefined;
  function open(): Store<Record<string, unknown>> {
    try {
      store ??= new Store<Record<string, unknown>>({
        name: 'permissions',
        clearInvalidConfig: false,
        // Project keys contain dots; they are plain keys, not paths.
        accessPropertiesByDotNotation: false,
      });
      return store;
    } catch (error) {
      throw new Error(
        `Tandem's permissions file could not be read (${(error as Error).message}). ` +
          'Fix or delete it; Tandem does not reset it silently.',
      );
    }
  }

  return {
    async load(folder: string): Promise<ProjectPermissions> {
      const current = open();
      const raw = current.get(projectKey(folder));
      if (raw === undefined) return DEFAULT_PERMISSIONS;
      return migratePermissions(raw, `${current.path} (project ${folder})`);
    },
    async save(folder: string, permissions: ProjectPermissions): Promise<void> {
      open().set(projectKey(folder), projectPermissionsSchema().parse(permissions));
    },
  };
}
