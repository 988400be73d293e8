// The MCP servers of one open project: started together (in parallel) when the session opens,
// their tools kept in the one registry as `mcp__<server>__<tool>`, stopped when it closes. A
// tool whose schema does not compile, or that is not an object schema, is left out and reported.
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerInfo, McpServerSource, McpToolInfo } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { createToolRegistry, MAX_REQUEST_TOOLS, type ToolRegistry } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { McpConnection, type ConnectionOptions, type McpServerEntry } from './mcp-connection';
import { serverDefinition } from './mcp-config';
import { annotatedEffect, createMcpTool, describeAnnotations, registryName } from './mcp-tool';

/**
 * Largest input schema taken from a server, as JSON text: every model request carries every
 * tool's schema, so one server's megabytes would be sent on each turn (and fill the context).
 */
export const MAX_SCHEMA_CHARS = 64 * 1024;

export type McpManagerOptions = Omit<ConnectionOptions, 'onChange' | 'sandbox'> & {
  readonly sandbox: SandboxState;
  /**
   * Tools every request carries besides the servers' (the built-ins), for the overview before a
   * registry is attached; an attached registry's own count is used when larger.
   */
  readonly reservedTools?: number;
  /** Called (coalesced) after any server's state, tools or log changed. */
  readonly onChange?: () => void;
};

interface BuiltTools {
  /** The server's list these were built from. */
  readonly from: readonly McpToolDefinition[];
  readonly tools: readonly AnyTool[];
  readonly info: readonly McpToolInfo[];
  readonly problems: readonly string[];
}

export class McpManager {
  private connections: McpConnection[];
  private started = false;
  private readonly registries = new Set<ToolRegistry>();
  /** Compiles schemas the way the real registry does (the same ajv setup), to report problems. */
  private readonly checker = createToolRegistry();
  private built = new Map<McpConnection, BuiltTools>();
  private current = new Map<string, AnyTool>();
  /** Per server, how many of its tools did not fit in a request (see MAX_REQUEST_TOOLS). */
  private leftOut = new Map<McpConnection, number>();
  private notifyPending = false;

  constructor(
    entries: readonly McpServerEntry[],
    private readonly options: McpManagerOptions,
  ) {
    this.connections = entries.map((entry) => this.connect(entry));
  }

  private connect(entry: McpServerEntry): McpConnection {
    return new McpConnection(entry, { ...this.options, onChange: () => this.changed() });
  }

  get names(): readonly string[] {
    return this.connections.map((c) => c.entry.name);
  }

  /** Starts every server at once; returns without waiting for any. */
  start(): void {
    this.started = true;
    for (const connection of this.connections) connection.start();
  }

  /**
   * Takes a new list of servers: a server whose entry (config or choices) changed, or that is
   * gone, stops; a new or changed one starts; the others keep running untouched.
   */
  async update(entries: readonly McpServerEntry[]): Promise<void> {
    const keep = new Map<string, McpConnection>();
    const stopping: Promise<void>[] = [];
    for (const connection of this.connections) {
      const next = entries.find((e) => e.name === connection.entry.name);
      if (next && sameEntry(next, connection.entry)) keep.set(next.name, connection);
      else stopping.push(connection.stop());
    }
    await Promise.all(stopping);
    this.connections = entries.map((entry) => {
      const kept = keep.get(entry.name);
      if (kept) return kept;
      const fresh = this.connect(entry);
      if (this.started) fresh.start();
      return fresh;
    });
    this.changed();
  }

  /** Keeps `registry` in step with the servers' tools until the returned function is called. */
  attach(registry: ToolRegistry): () => void {
    this.registries.add(registry);
    for (const tool of this.current.values()) registry.add(tool);
    // Its built-ins may leave less room than assumed.
    this.rebuild();
    return () => {
      this.registries.delete(registry);
      for (const name of this.current.keys()) registry.remove(name);
    };
  }

  /** Resolves when every server is ready or failed, or after `maxWaitMs`, whichever is first. */
  async whenSettled(maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(this.connections.map((c) => c.whenSettled())), limit]);
    clearTimeout(timer);
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.find((c) => c.entry.name === name);
  }

  overview(): McpServerInfo[] {
    return this.connections.map((connection) => {
      const { entry } = connection;
      const built = this.built.get(connection);
      const spec = entry.spec;
      const leftOut = this.leftOut.get(connection) ?? 0;
      const shown = built?.info.slice(0, built.info.length - leftOut) ?? [];
      return {
        name: entry.name,
        source: entry.source,
        transport: spec.kind,
        commandLine: connection.commandLine,
        envNames: spec.kind === 'stdio' ? Object.keys(spec.env).sort() : [],
        headerNames: spec.kind === 'stdio' ? [] : Object.keys(spec.headers).sort(),
        choices: entry.choices,
        status: connection.status,
        sandbox: connection.sandbox,
        tools: shown,
        problems: [
          ...connection.problems,
          ...(built?.problems ?? []),
          ...(leftOut > 0
            ? [
                `${leftOut} tool${leftOut === 1 ? '' : 's'} left out: a model request carries at most ${MAX_REQUEST_TOOLS} tools, ` +
                  'and the built-in tools and the servers before this one (app servers, then project servers, by name) take the rest',
              ]
            : []),
        ],
        stderrTail: connection.log.tail(),
      };
    });
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all(this.connections.map((c) => c.stop()));
  }

  private changed(): void {
    this.rebuild();
    // Many chunks of stderr arrive at once: the window hears about them once per tick.
    if (this.notifyPending || !this.options.onChange) return;
    this.notifyPending = true;
    setImmediate(() => {
      this.notifyPending = false;
      this.options.onChange?.();
    });
  }

  private rebuild(): void {
    const built = new Map<McpConnection, BuiltTools>();
    const taken = new Set<string>();
    for (const connection of this.connections) {
      const previous = this.built.get(connection);
      const definitions = connection.tools;
      // Same list object as last time: keep the tools (and their validators) as they are.
      const tools =
        previous && previous.from === definitions
          ? previous
          : this.buildTools(connection, new Set(taken));
      built.set(connection, tools);
      for (const tool of tools.tools) taken.add(tool.name);
    }
    this.built = built;
    // Every request carries every tool, and a request may carry only so many: the built-ins
    // first, then the servers' in a stable order, whatever order they started in.
    const next = new Map<string, AnyTool>();
    const leftOut = new Map<McpConnection, number>();
    let room = MAX_REQUEST_TOOLS - this.reservedTools();
    for (const connection of [...this.connections].sort(requestOrder)) {
      const tools = built.get(connection)?.tools ?? [];
      const fit = tools.slice(0, Math.max(0, room));
      room -= fit.length;
      if (fit.length < tools.length) leftOut.set(connection, tools.length - fit.length);
      for (const tool of fit) next.set(tool.name, tool);
    }
    this.leftOut = leftOut;
    for (const registry of this.registries) {
      for (const name of this.current.keys()) if (!next.has(name)) registry.remove(name);
      for (const [name, tool] of next) if (this.current.get(name) !== tool) registry.add(tool);
    }
    this.current = next;
  }

  /** Tools a request carries besides the servers': the most any attached registry has. */
  private reservedTools(): number {
    let reserved = this.options.reservedTools ?? 0;
    for (const registry of this.registries) {
      reserved = Math.max(reserved, registry.list().filter((tool) => !tool.mcp).length);
    }
    return reserved;
  }

  private buildTools(connection: McpConnection, taken: Set<string>): BuiltTools {
    const tools: AnyTool[] = [];
    const info: McpToolInfo[] = [];
    const problems: string[] = [];
    const { entry } = connection;
    const server = {
      name: entry.name,
      trusted: entry.choices.trusted,
      sandboxed: connection.sandbox.sandboxed,
      definition: serverDefinition(entry.spec),
      commandLine: connection.commandLine,
      sandboxDescription: connection.sandbox.description,
    };
    for (const definition of connection.tools) {
      if (JSON.stringify(definition.inputSchema).length > MAX_SCHEMA_CHARS) {
        problems.push(
          `tool "${definition.name}" left out: its input schema is larger than ${MAX_SCHEMA_CHARS / 1024} KB`,
        );
        continue;
      }
      const name = registryName(entry.name, definition.name, taken);
      const tool = createMcpTool(name, definition, server, connection, this.options.callTimeoutMs);
      const schemaProblem = this.checker.schemaProblem(tool);
      if (schemaProblem !== null) {
        problems.push(
          `tool "${definition.name}" left out: its input schema does not compile (${schemaProblem})`,
        );
        continue;
      }
      taken.add(name);
      tools.push(tool);
      info.push({
        name,
        tool: definition.name,
        title: definition.title ?? definition.annotations?.title ?? definition.name,
        effect: annotatedEffect(definition.annotations),
        annotations: describeAnnotations(definition.annotations),
      });
    }
    return { from: connection.tools, tools, info, problems };
  }
}

/** The command line's servers (the person's own, for this run), then the app's, then the project's. */
const SOURCE_ORDER: Readonly<Record<McpServerSource, number>> = { cli: 0, app: 1, project: 2 };

function requestOrder(a: McpConnection, b: McpConnection): number {
  const bySource = SOURCE_ORDER[a.entry.source] - SOURCE_ORDER[b.entry.source];
  if (bySource !== 0) return bySource;
  return a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0;
}

function sameEntry(a: McpServerEntry, b: McpServerEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
