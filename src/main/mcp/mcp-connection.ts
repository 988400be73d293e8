// One server's life: start (inside its sandbox), initialize within a time limit, list its tools,
// follow tools/list_changed, and restart with backoff after a crash, until stopped. A server that
// hangs, crashes or floods never blocks anyone: every wait has a limit and a clear reason.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type {
  McpSandboxInfo,
  McpServerChoices,
  McpServerSource,
  McpServerStatus,
} from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { BoundedLog } from './bounded-log';
import { commandLineOf, type McpServerSpec } from './mcp-config';
import { loadMcpSdk, mcpSdk } from './mcp-sdk';
import type { McpCallOptions, McpCaller } from './mcp-tool';
import { listAllTools } from './mcp-tool-list';
import {
  connectRemote,
  connectStdio,
  messageOf,
  REMOTE_SANDBOX,
  type OpenedConnection,
} from './mcp-transport';
import {
  describeServerSandbox,
  planStdioLaunch,
  type ChildSecrets,
  type StdioLaunch,
} from './stdio-launch';
import { durationText } from '../../shared/duration-text';

export interface McpServerEntry {
  readonly name: string;
  readonly source: McpServerSource;
  readonly spec: McpServerSpec;
  readonly choices: McpServerChoices;
}

export interface ConnectionOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly sandbox: SandboxState;
  /** Limit for initialize and tools/list. */
  readonly connectTimeoutMs?: number;
  /** Limit for one tool call (the registry's default when absent); it then says it timed out. */
  readonly callTimeoutMs?: number;
  /** Waits before each automatic restart; after the last one the server stays failed. */
  readonly restartDelaysMs?: readonly number[];
  readonly stderrChars?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
  /** Real paths of Tandem's own data folders, hidden from a sandboxed server. */
  readonly dataFolders?: readonly string[];
  /** Kept out of a local server's environment. */
  readonly secrets?: ChildSecrets;
  /** Called after every change of state, tools or log. */
  readonly onChange: () => void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_RESTART_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16_000];

export class McpConnection implements McpCaller {
  readonly log: BoundedLog;
  private state: McpServerStatus = { state: 'stopped' };
  private opened: OpenedConnection | undefined;
  private launch: StdioLaunch | undefined;
  private toolList: readonly McpToolDefinition[] = [];
  private listProblems: readonly string[] = [];
  private failures = 0;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private exitHow: string | undefined;
  private generation = 0;
  private readonly settledWaiters = new Set<() => void>();

  constructor(
    readonly entry: McpServerEntry,
    private readonly options: ConnectionOptions,
  ) {
    this.log = new BoundedLog(options.stderrChars);
  }

  get status(): McpServerStatus {
    return this.state;
  }

  get tools(): readonly McpToolDefinition[] {
    return this.state.state === 'ready' ? this.toolList : [];
  }

  get problems(): readonly string[] {
    return this.listProblems;
  }

  get commandLine(): string {
    return commandLineOf(this.entry.spec);
  }

  get sandbox(): McpSandboxInfo {
    return this.entry.spec.kind === 'stdio'
      ? describeServerSandbox(this.options.sandbox, this.entry.choices)
      : REMOTE_SANDBOX;
  }

  /** True once the server is ready or has failed (not while it starts). */
  get settled(): boolean {
    return this.state.state !== 'starting';
  }

  whenSettled(): Promise<void> {
    if (this.settled) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.add(resolve));
  }

  start(): void {
    this.stopping = false;
    void this.attempt();
  }

  private setState(state: McpServerStatus): void {
    this.state = state;
    if (this.settled) {
      for (const resolve of this.settledWaiters) resolve();
      this.settledWaiters.clear();
    }
    this.options.onChange();
  }

  private async attempt(): Promise<void> {
    const generation = ++this.generation;
    this.exitHow = undefined;
    this.setState({ state: 'starting', attempt: this.failures + 1 });
    const timeoutMs = this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const hooks = {
      timeoutMs,
      onStderr: (text: string) => {
        this.log.append(text);
        this.options.onChange();
      },
      onExit: (how: string) => {
        this.exitHow = how;
      },
      prepare: (client: Client) => this.watch(client, generation),
    };
    try {
      await loadMcpSdk();
      if (this.stopping || generation !== this.generation) return;
      const { spec } = this.entry;
      if (spec.kind === 'stdio') {
        this.launch = await planStdioLaunch({
          spec,
          folder: this.options.folder,
          choices: this.entry.choices,
          sandbox: this.options.sandbox,
          ...(this.options.env ? { baseEnv: this.options.env } : {}),
          ...(this.options.home !== undefined ? { home: this.options.home } : {}),
          ...(this.options.dataFolders ? { dataFolders: this.options.dataFolders } : {}),
          ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
        });
        this.opened = await connectStdio(this.launch, hooks);
      } else {
        this.opened = await connectRemote(spec, hooks);
      }
      if (this.stopping || generation !== this.generation) return;
      const listed = await listAllTools(this.opened.client, timeoutMs);
      if (this.stopping || generation !== this.generation) return;
      this.toolList = listed.tools;
      this.listProblems = listed.problems;
      this.failures = 0;
      this.setState({ state: 'ready' });
    } catch (error) {
      if (this.stopping || generation !== this.generation) return;
      await this.closeOpened();
      this.fail(this.reasonFor(error, timeoutMs));
    }
  }

  /** Follows the server after connecting: list changes, and a close we did not ask for. */
  private watch(client: Client, generation: number): void {
    // One list at a time: notifications that come in while a list is on its way are answered by
    // one more list after it, so a server sending thousands cannot make thousands of requests (and
    // rebuilds) run at once.
    let listing = false;
    let again = false;
    const refresh = async (): Promise<void> => {
      listing = true;
      try {
        do {
          again = false;
          try {
            const listed = await listAllTools(
              client,
              this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
            );
            if (generation !== this.generation) return;
            this.toolList = listed.tools;
            this.listProblems = listed.problems;
            this.options.onChange();
          } catch (error) {
            this.log.append(`[tandem] refreshing the tool list failed: ${messageOf(error)}\n`);
          }
        } while (again && generation === this.generation);
      } finally {
        listing = false;
      }
    };
    client.setNotificationHandler(mcpSdk().ToolListChangedNotificationSchema, () => {
      if (generation !== this.generation || this.state.state !== 'ready') return;
      if (listing) again = true;
      else void refresh();
    });
    client.onerror = (error) => {
      if (generation === this.generation) this.log.append(`[tandem] ${messageOf(error)}\n`);
    };
    client.onclose = () => {
      if (this.stopping || generation !== this.generation) return;
      if (this.state.state !== 'ready') return; // attempt() reports failures while starting
      void this.closeOpened().then(() =>
        this.fail(`the server stopped unexpectedly: it ${this.exitHow ?? 'closed the connection'}`),
      );
    };
  }

  private reasonFor(error: unknown, timeoutMs: number): string {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === -32001) {
      return `it did not answer within ${durationText(timeoutMs)}`;
    }
    const lastLine = this.log
      .tail()
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('[tandem]'))
      .pop();
    const exit = this.exitHow ? `it ${this.exitHow}` : messageOf(error);
    return lastLine ? `${exit}: ${lastLine.slice(0, 300)}` : exit;
  }

  private fail(reason: string): void {
    this.toolList = [];
    this.failures++;
    const delays = this.options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS;
    const delay = delays[this.failures - 1];
    const retryAt = delay === undefined ? null : Date.now() + delay;
    this.log.append(`[tandem] ${reason}\n`);
    this.setState({ state: 'failed', reason, retryAt });
    if (delay !== undefined) {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (!this.stopping) void this.attempt();
      }, delay);
      this.restartTimer.unref();
    }
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    const client = this.opened?.client;
    if (this.state.state !== 'ready' || !client) {
      const why = this.state.state === 'failed' ? `: ${this.state.reason}` : '';
      throw new Error(`the server "${this.entry.name}" is ${this.state.state}${why}`);
    }
    const result = await client.request(
      { method: 'tools/call', params: { name: tool, arguments: args } },
      mcpSdk().CallToolResultSchema,
      {
        signal: options.signal,
        onprogress: options.onProgress,
        // The registry's time limit applies; this one only stops a forgotten request.
        timeout: 24 * 60 * 60 * 1000,
      },
    );
    return result as CallToolResult;
  }

  /** Starts again now (after the person changed its choices, or from a failed state). */
  async restart(): Promise<void> {
    await this.stop();
    this.failures = 0;
    this.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.generation++;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    await this.closeOpened();
    this.toolList = [];
    this.setState({ state: 'stopped' });
  }

  private async closeOpened(): Promise<void> {
    const opened = this.opened;
    const launch = this.launch;
    this.opened = undefined;
    this.launch = undefined;
    if (opened) await opened.client.close().catch(() => undefined);
    if (launch) await launch.finish().catch(() => undefined);
  }
}
