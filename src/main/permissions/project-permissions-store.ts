// Mode, network setting and "always" rules of one project, persisted with a schema and a version.
// The CLI keeps them in <dataDir>/projects/<key>/permissions.json; the app will put the same
// value in electron-store behind the same interface.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import { SERVER_NAME, SERVER_NAME_MAX } from '../../shared/mcp-types';
import { PERMISSION_MODES, type PermissionMode } from '../../shared/tool-types';
import { projectDataDir } from '../store/data-dir';
import {
  exactRule,
  rulePattern,
  sameRule,
  widenedRule,
  type PermissionRule,
} from './permission-rule';
import { checkWidening } from './rule-widening';
import { showWords } from './shown-words';
import { writePrivateFileAtomic } from '../store/private-files';

/**
 * 2: command rules store `argv` and `match` ('exact' or 'prefix'). Version 1 stored `prefix`,
 * which always matched as a prefix; `migratePermissions` turns those into widened rules.
 */
export const PERMISSIONS_VERSION = 2;

/** Whether network tools may run without asking in autonomous mode ('off' refuses them everywhere). */
export type NetworkSetting = 'off' | 'ask' | 'allow';

export interface StoredRule {
  readonly rule: PermissionRule;
  readonly createdAt: number;
  /** Set when Tandem had to narrow the rule (Settings shows it), e.g. after a migration. */
  readonly note?: string;
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

/** Built on first use (lazy-value.ts): only when a stored value is read or written. */
const schemas = lazyValue(() => {
  const commandWords = z
    .array(z.string())
    .min(1)
    .refine((argv) => argv[0] !== '', 'the program must not be empty');

  /** The MCP server definition a rule was made for (absent in rules stored before they were kept). */
  const definitionHash = z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional();

  const ruleSchema = z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('command'),
        argv: commandWords,
        match: z.enum(['exact', 'prefix']),
      })
      .strict(),
    z
      .object({ kind: z.literal('tool'), tool: z.string().min(1), definition: definitionHash })
      .strict(),
    z
      .object({
        kind: z.literal('mcp-server'),
        server: z.string().regex(SERVER_NAME).max(SERVER_NAME_MAX),
        definition: definitionHash,
      })
      .strict(),
  ]);

  const modeSchema = z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]);
  const networkSchema = z.enum(['off', 'ask', 'allow']);

  const projectPermissionsSchema = z
    .object({
      version: z.literal(PERMISSIONS_VERSION),
      mode: modeSchema,
      network: networkSchema,
      rules: z.array(
        z.object({ rule: ruleSchema, createdAt: z.number(), note: z.string().optional() }).strict(),
      ),
    })
    .strict();

  /** Version 1: a command rule was a prefix of words, always matched as a prefix. */
  const version1Schema = z
    .object({
      version: z.literal(1),
      mode: modeSchema,
      network: networkSchema,
      rules: z.array(
        z
          .object({
            rule: z.discriminatedUnion('kind', [
              z
                .object({ kind: z.literal('command'), prefix: z.array(z.string().min(1)).min(1) })
                .strict(),
              z.object({ kind: z.literal('tool'), tool: z.string().min(1) }).strict(),
            ]),
            createdAt: z.number(),
          })
          .strict(),
      ),
    })
    .strict();
  return { projectPermissionsSchema, version1Schema };
});

/** The current version's shape: what a store may hold. */
export const projectPermissionsSchema = (): ReturnType<
  typeof schemas
>['projectPermissionsSchema'] => schemas().projectPermissionsSchema;

/** Where a project's permissions live. Keyed by the project's real folder path. */
export interface PermissionsStore {
  load(folder: string): Promise<ProjectPermissions>;
  save(folder: string, permissions: ProjectPermissions): Promise<void>;
}

/**
 * Brings an older stored value up to the current version and keeps every rule within today's
 * widening limits. A value from a newer Tandem is refused rather than guessed at; a value that
 * does not fit its version's schema is an error, never a silent reset.
 */
export function migratePermissions(raw: unknown, source: string): ProjectPermissions {
  const version =
    typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > PERMISSIONS_VERSION) {
    throw new Error(
      `${source} was written by a newer Tandem (version ${version}; this one reads ${PERMISSIONS_VERSION}).`,
    );
  }
  if (version === 1) {
    const old = parseOrExplain(schemas().version1Schema, raw, source);
    return {
      ...old,
      version: PERMISSIONS_VERSION,
      rules: old.rules.map(({ rule, createdAt }) =>
        // Version 1 matched every command rule as a prefix: it stays one, so its meaning holds.
        withinLimits({
          rule: rule.kind === 'command' ? widenedRule(rule.prefix) : rule,
          createdAt,
        }),
      ),
    };
  }
  const current = parseOrExplain(projectPermissionsSchema(), raw, source);
  return { ...current, rules: current.rules.map(withinLimits) };
}

function parseOrExplain<T>(schema: z.ZodType<T>, raw: unknown, source: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new Error(
    `${source} is not a valid permissions file${where}: ${issue?.message ?? 'unknown problem'}. ` +
      'Fix or delete it; Tandem does not reset it silently.',
  );
}

/**
 * A widened rule that today's limits refuse (an old `npx tsx *`, `git push *`) is narrowed to
 * its exact words, with a note the Settings list shows: narrower, never wider, and never silent.
 */
function withinLimits(stored: StoredRule): StoredRule {
  const { rule } = stored;
  if (rule.kind !== 'command' || rule.match !== 'prefix') return stored;
  const check = checkWidening(rule.argv);
  if (check.ok) return stored;
  return {
    rule: exactRule(rule.argv),
    createdAt: stored.createdAt,
    note:
      `Stored as \`${rulePattern(rule)}\`; narrowed to ${showWords(rule.argv)} exactly because ` +
      `${check.reason}.`,
  };
}

/** Far above any real rules file; a bigger one is refused rather than read on the main thread. */
const MAX_PERMISSIONS_BYTES = 4 * 1024 * 1024;

/**
 * The file's text, read on the calling thread. Opened non-blocking and checked before reading: a
 * FIFO in its place would otherwise block the main process for good, a device or a huge file
 * for as long as it takes.
 */
function readRegularFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new Error(`${file} is not a regular file; Tandem reads only one there`);
    if (stat.size > MAX_PERMISSIONS_BYTES) {
      throw new Error(`${file} is ${stat.size} bytes, more than a permissions file can be`);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
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
      // Read at every decision, so a rule changed elsewhere applies at once; synchronously, as
      // the transcript and journal in the same data folder are written: promises.readFile takes
      // four thread-pool round trips (open, stat, read, close), milliseconds per tool call on a
      // busy machine (issue 15), for a file of a few hundred bytes.
      text = readRegularFile(file);
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
    const value = projectPermissionsSchema().parse(permissions);
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
