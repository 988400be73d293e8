// Opens one server's connection: a stdio server started by its launch plan inside the sandbox, or
// a remote one over Streamable HTTP, falling back to the older SSE transport when the server does
// not speak the newer one. Each attempt gets a fresh Client, as the SDK expects.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSandboxInfo } from '../../shared/mcp-types';
import type { McpServerSpec } from './mcp-config';
import { SandboxedStdioTransport } from './sandboxed-stdio-transport';
import type { StdioLaunch } from './stdio-launch';

export const CLIENT_INFO = { name: 'tandem', version: '0.1.0' } as const;

export interface OpenedConnection {
  readonly client: Client;
  readonly transport: Transport;
  /** Which transport answered: 'http' (Streamable HTTP), 'sse' or 'stdio'. */
  readonly kind: 'stdio' | 'http' | 'sse';
}

export interface ConnectHooks {
  readonly onStderr: (text: string) => void;
  readonly onExit: (how: string) => void;
  /** Set before connecting, so a notification that arrives at once is not missed. */
  readonly prepare: (client: Client) => void;
  readonly timeoutMs: number;
}

export async function connectStdio(
  launch: StdioLaunch,
  hooks: ConnectHooks,
): Promise<OpenedConnection> {
  const transport = new SandboxedStdioTransport(launch, {
    onStderr: hooks.onStderr,
    onExit: hooks.onExit,
  });
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  hooks.prepare(client);
  try {
    await client.connect(transport, { timeout: hooks.timeoutMs });
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport, kind: 'stdio' };
}

export async function connectRemote(
  spec: Extract<McpServerSpec, { kind: 'http' | 'sse' }>,
  hooks: ConnectHooks,
): Promise<OpenedConnection> {
  const url = new URL(spec.url);
  const requestInit: RequestInit = { headers: { ...spec.headers } };
  if (spec.kind === 'http') {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    hooks.prepare(client);
    const transport = new StreamableHTTPClientTransport(url, { requestInit });
    try {
      await client.connect(transport, { timeout: hooks.timeoutMs });
      return { client, transport, kind: 'http' };
    } catch (error) {
      await transport.close().catch(() => undefined);
      // Only a server that refused the newer protocol is tried over SSE; a dead one is dead.
      if (!refusedStreamableHttp(error)) throw error;
      const why = messageOf(error).replace(/\s+/g, ' ').slice(0, 200);
      hooks.onStderr(`[tandem] Streamable HTTP refused (${why}); trying SSE\n`);
    }
  }
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  hooks.prepare(client);
  const transport = new SSEClientTransport(url, {
    requestInit,
    eventSourceInit: {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...spec.headers, ...headersOf(init?.headers) } }),
    },
  });
  try {
    await client.connect(transport, { timeout: hooks.timeoutMs });
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport, kind: 'sse' };
}

/** HTTP 4xx from the first POST (404, 405, 400): the server does not speak Streamable HTTP. */
function refusedStreamableHttp(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 400 && code < 500;
}

function headersOf(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers).entries());
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The sandbox line of a remote server: it runs elsewhere, so there is nothing to confine. */
export const REMOTE_SANDBOX: McpSandboxInfo = {
  sandboxed: false,
  description: 'Remote server: it runs elsewhere; Tandem only sends it the calls you allow.',
};
