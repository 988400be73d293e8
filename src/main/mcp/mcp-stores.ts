// Where MCP settings live, as JSON files in Tandem's data folder (the app's and the CLI's each):
// the app's own servers with the person's choices (`<dataDir>/mcp-servers.json`), and per project
// which `.mcp.json` content was accepted plus the choices for its servers
// (`<dataDir>/projects/<key>/mcp.json`). A damaged file is an error, never a silent reset.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import type { McpServerChoices } from '../../shared/mcp-types';
import { projectDataDir } from '../store/data-dir';
import { choicesSchema } from './mcp-choices';

const VERSION = 1;

/** One app server: its entry in the `mcpServers` shape as given, and the person's choices. */
export interface AppMcpServer {
  readonly config: Readonly<Record<string, unknown>>;
  readonly choices: McpServerChoices;
}

export interface AppMcpSettings {
  readonly servers: Readonly<Record<string, AppMcpServer>>;
}

export interface ProjectMcpSettings {
  /** sha256 of the `.mcp.json` content the person accepted; null before any. */
  readonly acceptedHash: string | null;
  readonly choices: Readonly<Record<string, McpServerChoices>>;
}

/** Built on first use (lazy-value.ts): only when a stored file is read or written. */
const schemas = lazyValue(() => {
  const appSchema = z
    .object({
      version: z.literal(VERSION),
      servers: z.record(
        z.string(),
        z.object({ config: z.record(z.string(), z.unknown()), choices: choicesSchema() }).strict(),
      ),
    })
    .strict();

  const projectSchema = z
    .object({
      version: z.literal(VERSION),
      acceptedHash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
      choices: z.record(z.string(), choicesSchema()),
    })
    .strict();
  return { appSchema, projectSchema };
});

export const EMPTY_APP_MCP: AppMcpSettings = { servers: {} };
export const EMPTY_PROJECT_MCP: ProjectMcpSettings = { acceptedHash: null, choices: {} };

export interface McpSettingsStore {
  loadApp(): Promise<AppMcpSettings>;
  saveApp(settings: AppMcpSettings): Promise<void>;
  loadProject(folder: string): Promise<ProjectMcpSettings>;
  saveProject(folder: string, settings: ProjectMcpSettings): Promise<void>;
}

export class JsonFileMcpSettingsStore implements McpSettingsStore {
  constructor(private readonly dataDir: string) {}

  appFile(): string {
    return join(this.dataDir, 'mcp-servers.json');
  }

  projectFile(folder: string): string {
    return join(projectDataDir(this.dataDir, folder), 'mcp.json');
  }

  async loadApp(): Promise<AppMcpSettings> {
    const raw = await readJson(this.appFile());
    if (raw === undefined) return EMPTY_APP_MCP;
    return { servers: parse(schemas().appSchema, raw, this.appFile()).servers };
  }

  async saveApp(settings: AppMcpSettings): Promise<void> {
    await writeJson(this.appFile(), schemas().appSchema.parse({ version: VERSION, ...settings }));
  }

  async loadProject(folder: string): Promise<ProjectMcpSettings> {
    const file = this.projectFile(folder);
    const raw = await readJson(file);
    if (raw === undefined) return EMPTY_PROJECT_MCP;
    const { acceptedHash, choices } = parse(schemas().projectSchema, raw, file);
    return { acceptedHash, choices };
  }

  async saveProject(folder: string, settings: ProjectMcpSettings): Promise<void> {
    await writeJson(
      this.projectFile(folder),
      schemas().projectSchema.parse({ version: VERSION, ...settings }),
    );
  }
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(
      `${file} is not valid JSON (${(error as Error).message}). Fix or delete it; Tandem does not reset it silently.`,
    );
  }
}

function parse<T>(schema: z.ZodType<T>, raw: unknown, file: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new Error(
    `${file} is not a valid MCP settings file${where}: ${issue?.message ?? 'unknown problem'}. ` +
      'Fix or delete it; Tandem does not reset it silently.',
  );
}

let tempCounter = 0;

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Write beside, then rename: a crash leaves the old file or the new one, never half of one.
  const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  await writeFile(temp, JSON.stringify(value, null, 2) + '\n', { encoding: 'utf8', mode: 0o600 });
  await rename(temp, file);
}
