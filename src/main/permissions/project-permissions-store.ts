// Mode, network setting and "always" rules of one project, persisted with a schema and a version.
// The CLI keeps them in <dataDir>/projects/<key>/permissions.json; the app will put the same
// value in electron-store behind the same interface.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { PERMISSION_MODES, type PermissionMode } from '../../shared/tool-types';
import { projectDataDir } from '../store/data-dir';
import { sameRule, type PermissionRule } from './permission-rule';
import { writePrivateFileAtomic } from '../store/private-files';

export const PERMISSIONS_VERSION = 1;

/** Whether network tools may run without asking in autonomous mode ('off' refuses them everywhere). */
export type NetworkSetting = 'off' | 'ask' | 'allow';

export interface StoredRule {
  readonly rule: PermissionRule;
  readonly createdAt: number;
}

export interface ProjectPermissions {
  readonly version: typeof PERMISSIONS_VERSION;
  readonly mode: PermissionMode;
  readonly network: NetworkSetting;
  readonly rules: readonly StoredRule[];
}

export const DEFAULT_PERMISSIONS: ProjectPermissions = {
  version: PERMISSIONS_VERSION,
  mode: 'ask',
  network: 'ask',
  rules: [],
};

const ruleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('command'), prefix: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({ kind: z.literal('tool'), tool: z.string().min(1) }).strict(),
]);

export const projectPermissionsSchema = z
  .object({
    version: z.literal(PERMISSIONS_VERSION),
    mode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]),
    network: z.enum(['off', 'ask', 'allow']),
    rules: z.array(z.object({ rule: ruleSchema, createdAt: z.number() }).strict()),
  })
  .strict();

/** Where a project's permissions live. Keyed by the project's real folder path. */
export interface PermissionsStore {
  load(folder: string): Promise<ProjectPermissions>;
  save(folder: string, permissions: ProjectPermissions): Promise<void>;
}

/**
 * Brings an older stored value up to the current version. Only version 1 exists so far; a value
 * from a newer Tandem is refused rather than guessed at.
 */
export function migratePermissions(raw: unknown, source: string): ProjectPermissions {
  const version =
    typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > PERMISSIONS_VERSION) {
    throw new Error(
      `${source} was written by a newer Tandem (version ${version}; this one reads ${PERMISSIONS_VERSION}).`,
    );
  }
  const parsed = projectPermissionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new Error(
      `${source} is not a valid permissions file${where}: ${issue?.message ?? 'unknown problem'}. ` +
        'Fix or delete it; Tandem does not reset it silently.',
    );
  }
  return parsed.data;
}

export class JsonFilePermissionsStore implements PermissionsStore {
  constructor(private readonly dataDir: string) {}

  fileFor(folder: string): string {
    return join(projectDataDir(this.dataDir, folder), 'permissions.json');
  }

  async load(folder: string): Promise<ProjectPermissions> {
    const file = this.fileFor(folder);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_PERMISSIONS;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(
        `${file} is not valid JSON (${(error as Error).message}). Fix or delete it; Tandem does not reset it silently.`,
      );
    }
    return migratePermissions(raw, file);
  }

  async save(folder: string, permissions: ProjectPermissions): Promise<void> {
    const value = projectPermissionsSchema.parse(permissions);
    const file = this.fileFor(folder);
    // Written beside, then renamed (a crash leaves the old file or the new one), 0600.
    await writePrivateFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
  }
}

/** Adds a rule unless an equal one is stored; returns the new value. */
export function withRule(
  permissions: ProjectPermissions,
  rule: PermissionRule,
  now: number,
): ProjectPermissions {
  if (permissions.rules.some((r) => sameRule(r.rule, rule))) return permissions;
  return { ...permissions, rules: [...permissions.rules, { rule, createdAt: now }] };
}

export function withoutRule(
  permissions: ProjectPermissions,
  rule: PermissionRule,
): ProjectPermissions {
  return { ...permissions, rules: permissions.rules.filter((r) => !sameRule(r.rule, rule)) };
}
