// The MCP side of the open folder, for the window and the CLI: which servers run (the app's, the
// command line's, and the project's accepted `.mcp.json`), their overview, the person's changes
// (add or remove an app server, choices per server, accepting the project's file), and the tool
// source the agent's registry follows. Asking the person before a widening is the caller's job.
import {
  DEFAULT_MCP_CHOICES,
  type McpOverview,
  type McpServerChoices,
} from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { realDataFolder } from '../store/data-dir';
import { createBuiltinTools } from '../tools/builtin-tools';
import type { ToolRegistry } from '../tools/registry';
import { choicesOrDefault } from './mcp-choices';
import { parseMcpConfigText, serverDefinition, type NamedServerSpec } from './mcp-config';
import type { ConnectionOptions, McpServerEntry } from './mcp-connection';
import { McpManager } from './mcp-manager';
import {
  collectMcpServers,
  projectServersRunning,
  type CommandLineServers,
} from './mcp-server-list';
import type { McpSettingsStore } from './mcp-stores';
import { messageOf } from './mcp-transport';
import { readProjectMcpFile, withAcceptedHash } from './project-mcp-file';
import type { ChildSecrets } from './stdio-launch';

/** What the agent needs: its registry kept in step, and a bounded wait for servers to settle. */
export interface McpToolSource {
  attach(registry: ToolRegistry): () => void;
  whenSettled(maxWaitMs: number, signal?: AbortSignal): Promise<void>;
}

export type McpTuning = Partial<
  Pick<
    ConnectionOptions,
    'connectTimeoutMs' | 'callTimeoutMs' | 'restartDelaysMs' | 'stderrChars' | 'env' | 'home'
  >
>;

export interface McpHostOptions {
  readonly store: McpSettingsStore;
  readonly sandbox: () => Promise<SandboxState>;
  readonly tuning?: McpTuning;
  /** Servers named on the command line (`tandem run --mcp-config`). */
  readonly cli?: CommandLineServers;
  /** Tandem's own data folders: a sandboxed server sees each as an empty folder. */
  readonly dataFolders?: readonly string[];
  /** The provider key's variable and value, read when a folder's servers start. */
  readonly childSecrets?: () => Promise<ChildSecrets>;
}

/** How many built-in tools every request carries: the servers' tools fit in what is left. */
function builtinToolCount(): number {
  return createBuiltinTools().length;
}

/** The window's: its stored key, whatever origin it was stored for, stays out of every server. */
export function storedKeySecrets(secrets: {
  get(): Promise<string | undefined>;
}): () => Promise<ChildSecrets> {
  return async () => {
    const key = await secrets.get();
    return { names: [], values: key !== undefined ? [key] : [] };
  };
}

export class McpHost implements McpToolSource {
  private folder: string | null = null;
  private manager: McpManager | null = null;
  private problems: readonly string[] = [];
  private readonly registries = new Set<ToolRegistry>();
  private readonly detachers = new Map<ToolRegistry, () => void>();
  private readonly listeners = new Set<() => void>();
  /** Changes run one after another, so two quick edits cannot interleave their reloads. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: McpHostOptions) {}

  get openFolderPath(): string | null {
    return this.folder;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the folder's servers (in parallel) and returns without waiting for them. */
  openFolder(folder: string): Promise<void> {
    return this.exclusive(async () => {
      await this.stopManager();
      this.folder = folder;
      const list = await collectMcpServers(this.options.store, folder, this.options.cli).catch(
        // A damaged settings file: no server starts, and the overview says why.
        (error: unknown) => ({ entries: [], problems: [messageOf(error)] }),
      );
      this.problems = list.problems;
      await this.startManager(folder, list.entries);
      this.notify();
    });
  }

  /**
   * Starts a manager for `entries`; with none, there is none to start until a change brings a
   * server (reload): no manager waits for the sandbox's probe (a bwrap run) or counts the built-in
   * tools for a folder without servers, whose first model request should not wait for either.
   */
  private async startManager(folder: string, entries: readonly McpServerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const manager = new McpManager(entries, {
      ...this.options.tuning,
      folder,
      sandbox: await this.options.sandbox(),
      dataFolders: (this.options.dataFolders ?? []).map(realDataFolder),
      secrets: await this.childSecrets(),
      reservedTools: builtinToolCount(),
      onChange: () => this.notify(),
    });
    this.manager = manager;
    for (const registry of this.registries) this.detachers.set(registry, manager.attach(registry));
    manager.start();
  }

  /** Stops every server (the session closed). */
  close(): Promise<void> {
    return this.exclusive(async () => {
      await this.stopManager();
      this.folder = null;
      this.notify();
    });
  }

  attach(registry: ToolRegistry): () => void {
    this.registries.add(registry);
    if (this.manager) this.detachers.set(registry, this.manager.attach(registry));
    return () => {
      this.registries.delete(registry);
      this.detachers.get(registry)?.();
      this.detachers.delete(registry);
    };
  }

  async whenSettled(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    await this.queue;
    await this.manager?.whenSettled(maxWaitMs, signal);
  }

  async overview(): Promise<McpOverview> {
    const folder = this.folder;
    if (folder !== null) {
      const settings = await this.options.store.loadProject(folder);
      const project = await readProjectMcpFile(folder, settings.acceptedHash);
      return {
        servers: this.manager?.overview() ?? [],
        project: project.status,
        problems: this.problems,
      };
    }
    // No folder open: the app's servers as they would run, none of them running.
    const list = await collectMcpServers(this.options.store, null, undefined);
    const idle = new McpManager(list.entries, {
      folder: '/',
      reservedTools: builtinToolCount(),
      sandbox: await this.options.sandbox(),
    });
    return {
      servers: idle.overview(),
      project: { kind: 'none' },
      problems: list.problems,
    };
  }

  /** Adds (or replaces) app servers from text in the `mcpServers` shape. */
  addAppServers(text: string): Promise<readonly string[]> {
    return this.exclusive(async () => {
      const parsed = parseMcpConfigText(text, 'the pasted servers');
      if ('error' in parsed) throw new Error(parsed.error);
      if (parsed.servers.length === 0) {
        throw new Error(`no server could be added: ${parsed.problems.join('; ') || 'none given'}`);
      }
      const raw = JSON.parse(text) as Record<string, unknown>;
      const map = (raw.mcpServers ?? raw) as Record<string, Record<string, unknown>>;
      const app = await this.options.store.loadApp();
      const servers = { ...app.servers };
      for (const { name } of parsed.servers) {
        // Replacing a server's config keeps the person's choices for it.
        const before = Object.hasOwn(servers, name) ? servers[name]?.choices : undefined;
        servers[name] = { config: map[name] ?? {}, choices: before ?? DEFAULT_MCP_CHOICES };
      }
      await this.options.store.saveApp({ servers });
      await this.reload();
      return parsed.problems;
    });
  }

  removeAppServer(name: string): Promise<void> {
    return this.exclusive(async () => {
      const app = await this.options.store.loadApp();
      if (!Object.hasOwn(app.servers, name)) throw new Error(`there is no app server "${name}"`);
      const servers = Object.fromEntries(Object.entries(app.servers).filter(([n]) => n !== name));
      await this.options.store.saveApp({ servers });
      await this.reload();
    });
  }

  /** The choices a server has now (for the caller's widening check). */
  async choicesOf(source: 'app' | 'project', name: string): Promise<McpServerChoices> {
    if (source === 'app') {
      const { servers } = await this.options.store.loadApp();
      const server = Object.hasOwn(servers, name) ? servers[name] : undefined;
      if (!server) throw new Error(`there is no app server "${name}"`);
      return server.choices;
    }
    const folder = this.requireFolder();
    return choicesOrDefault((await this.options.store.loadProject(folder)).choices, name);
  }

  setChoices(source: 'app' | 'project', name: string, choices: McpServerChoices): Promise<void> {
    return this.exclusive(async () => {
      if (source === 'app') {
        const app = await this.options.store.loadApp();
        const server = Object.hasOwn(app.servers, name) ? app.servers[name] : undefined;
        if (!server) throw new Error(`there is no app server "${name}"`);
        await this.options.store.saveApp({
          servers: { ...app.servers, [name]: { ...server, choices } },
        });
      } else {
        const folder = this.requireFolder();
        const settings = await this.options.store.loadProject(folder);
        await this.options.store.saveProject(folder, {
          ...settings,
          choices: { ...settings.choices, [name]: choices },
        });
      }
      await this.reload();
    });
  }

  /**
   * The servers of the project's `.mcp.json` that would run as the project's (an app server of
   * the same name comes first), if its content still hashes to `hash`.
   */
  async projectServersFor(hash: string): Promise<readonly NamedServerSpec[]> {
    const folder = this.requireFolder();
    const settings = await this.options.store.loadProject(folder);
    const file = await readProjectMcpFile(folder, settings.acceptedHash);
    if (file.status.kind !== 'pending' && file.status.kind !== 'accepted') {
      throw new Error('this project has no .mcp.json to accept');
    }
    if (file.status.hash !== hash) {
      throw new Error('.mcp.json changed after it was shown; review it again before accepting');
    }
    return projectServersRunning(this.options.store, file.servers);
  }

  /** The hash of the definition a running server was started with (rules bind to it). */
  serverDefinitionOf(name: string): string | undefined {
    const connection = this.manager?.connection(name);
    return connection ? serverDefinition(connection.entry.spec) : undefined;
  }

  /** Accepts the project's `.mcp.json` only if its content still hashes to what was shown. */
  acceptProject(hash: string): Promise<void> {
    return this.exclusive(async () => {
      const folder = this.requireFolder();
      const settings = await this.options.store.loadProject(folder);
      const file = await readProjectMcpFile(folder, settings.acceptedHash);
      if (file.status.kind !== 'pending' && file.status.kind !== 'accepted') {
        throw new Error('this project has no .mcp.json to accept');
      }
      if (file.status.hash !== hash) {
        throw new Error('.mcp.json changed after it was shown; review it again before accepting');
      }
      await this.options.store.saveProject(folder, withAcceptedHash(settings, hash));
      await this.reload();
    });
  }

  /** Stops the project's servers and forgets the acceptance: the file asks again. */
  revokeProject(): Promise<void> {
    return this.exclusive(async () => {
      const folder = this.requireFolder();
      const settings = await this.options.store.loadProject(folder);
      await this.options.store.saveProject(folder, { ...settings, acceptedHash: null });
      await this.reload();
    });
  }

  /** A server's state right now, or undefined when no such server runs here. */
  connectionState(name: string): string | undefined {
    return this.manager?.connection(name)?.status.state;
  }

  /** Starts one server again now (after a failure the person fixed). */
  async restartServer(name: string): Promise<void> {
    const connection = this.manager?.connection(name);
    if (!connection) throw new Error(`no server "${name}" is running in this folder`);
    await connection.restart();
  }

  private async reload(): Promise<void> {
    if (this.folder === null) {
      this.notify();
      return;
    }
    const list = await collectMcpServers(this.options.store, this.folder, this.options.cli);
    this.problems = list.problems;
    if (this.manager) await this.manager.update(list.entries);
    else await this.startManager(this.folder, list.entries);
    this.notify();
  }

  /** A store that cannot be read leaves only Tandem's own variables out (always dropped). */
  private async childSecrets(): Promise<ChildSecrets> {
    try {
      return (await this.options.childSecrets?.()) ?? { names: [], values: [] };
    } catch {
      return { names: [], values: [] };
    }
  }

  private requireFolder(): string {
    if (this.folder === null) throw new Error('Open a project folder first.');
    return this.folder;
  }

  private async stopManager(): Promise<void> {
    const manager = this.manager;
    this.manager = null;
    for (const detach of this.detachers.values()) detach();
    this.detachers.clear();
    await manager?.stop();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }

  private exclusive<T>(change: () => Promise<T>): Promise<T> {
    const next = this.queue.then(change, change);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
