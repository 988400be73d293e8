// The MCP SDK (its client, transports and schemas: about 300 KB of code with the zod it brings),
// loaded when the first server starts: not by every process that builds an MCP host (`tandem run`,
// the window) before it knows whether a server is configured at all.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type {
  CallToolResultSchema,
  McpError,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  readonly Client: typeof Client;
  readonly SSEClientTransport: typeof SSEClientTransport;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly ReadBuffer: typeof ReadBuffer;
  readonly serializeMessage: typeof serializeMessage;
  readonly CallToolResultSchema: typeof CallToolResultSchema;
  readonly McpError: typeof McpError;
  readonly ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
  readonly ToolSchema: typeof ToolSchema;
}

let loaded: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

/** Loads the SDK once; a server's start awaits it before anything else. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(
    ([client, sse, http, stdio, types]) =>
      (loaded = {
        Client: client.Client,
        SSEClientTransport: sse.SSEClientTransport,
        StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
        ReadBuffer: stdio.ReadBuffer,
        serializeMessage: stdio.serializeMessage,
        CallToolResultSchema: types.CallToolResultSchema,
        McpError: types.McpError,
        ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
        ToolSchema: types.ToolSchema,
      }),
    (error: unknown) => {
      loading = undefined; // a later start tries again
      throw error;
    },
  );
  return loading;
}

/** The SDK, once loaded: what runs on an opened connection (a transport, a list, a call) uses it. */
export function mcpSdk(): McpSdk {
  if (!loaded) throw new Error('the MCP SDK was used before a server started');
  return loaded;
}

/** The SDK if a server has started in this process, else undefined. */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}
