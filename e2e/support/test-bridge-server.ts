// Provides main's side of `window.tandem` to a page in plain Chromium: a WebSocket server that
// runs the REAL handlers (src/main/ipc/create-handlers.ts) behind the same validation wrapper
// Electron uses. Only the Electron transport is swapped out.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  createHandlers,
  type HandlerDeps,
  type TandemBackend,
} from '../../src/main/ipc/create-handlers';
import { createAgentRunControllerFactory } from '../../src/main/ipc/agent-run-controller';
import { McpHost, storedKeySecrets, type McpTuning } from '../../src/main/mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../../src/main/mcp/mcp-stores';
import { GrantBook } from '../../src/main/permissions/grant-book';
import { JsonFilePermissionsStore } from '../../src/main/permissions/project-permissions-store';
import { presetForBaseUrl } from '../../src/shared/provider-presets';
import type { ProviderTimeoutSettings } from '../../src/shared/provider-timeouts';
import { storeApiKey } from '../../src/main/store/provider-config';
import { JsonFileSettingsStore } from '../../src/main/store/provider-settings';
import { MemorySecretStore } from '../../src/main/store/secret-store';
import type { ConfirmRequest } from '../../src/main/ipc/setting-confirmation';
import { createValidatedDispatcher } from '../../src/main/ipc/validated-handlers';
import { parseBridgeCall, type BridgeReply } from './bridge-protocol';

export interface TestBridge {
  /** ws://127.0.0.1:<port> */
  readonly url: string;
  readonly backend: TandemBackend;
  /** What main asked in its own dialog (Autonomous mode, the network), oldest first. */
  readonly confirmations: readonly ConfirmRequest[];
  /** How the stand-in for main's dialog answers from now on (yes at first). */
  answerConfirmations(yes: boolean): void;
  close(): Promise<void>;
}

/**
 * `chooseFolder` stands in for the native folder dialog: what it returns counts as the person's
 * choice, the only way a folder gets into the recent list. `confirm` stands in for main's dialog;
 * by default it records the question and answers as `answerConfirmations` says.
 */
export type TestBridgeOptions = Pick<HandlerDeps, 'dataDir' | 'chooseFolder'> &
  Partial<HandlerDeps> & {
    /** Stored before the page loads, as if the person had set it up earlier. */
    readonly provider?: {
      readonly baseUrl: string;
      readonly model: string;
      readonly apiKey?: string;
      /** How long to wait for the provider; absent means the defaults. */
      readonly timeouts?: ProviderTimeoutSettings;
    };
    /**
     * Run the REAL agent behind the window (createAgentRunControllerFactory): the provider from
     * the stored settings, real tools in the opened folder, the real permission gate and broker.
     */
    readonly realAgent?: boolean;
    /** Time limits and backoff for the MCP servers of the opened folder. */
    readonly mcpTuning?: McpTuning;
    /**
     * Whether a socket may connect (its Origin and token, say); every socket may when absent,
     * as in the tests, whose pages are the only ones in their browser.
     */
    readonly admit?: (request: IncomingMessage) => boolean;
  };

export async function startTestBridge(options: TestBridgeOptions): Promise<TestBridge> {
  const { provider, realAgent, mcpTuning, admit, ...deps } = options;
  // The same stores the CLI uses: JSON files in the (temporary) data folder, the key in memory.
  const settings = deps.settings ?? new JsonFileSettingsStore(deps.dataDir);
  const secrets = deps.secrets ?? new MemorySecretStore();
  if (provider) {
    const presetId = presetForBaseUrl(provider.baseUrl).id;
    await settings.save({
      baseUrl: provider.baseUrl,
      model: provider.model,
      presetId,
      ...(provider.timeouts !== undefined ? { timeouts: provider.timeouts } : {}),
    });
    if (provider.apiKey !== undefined) await storeApiKey(settings, secrets, provider.apiKey);
  }
  // One instance of each, shared by the handlers and the agent, as in the app.
  const permissions = deps.permissions ?? new JsonFilePermissionsStore(deps.dataDir);
  const grants = deps.grants ?? new GrantBook();
  const sandboxState =
    deps.sandboxState ??
    (() => ({ kind: 'none' as const, available: false, description: 'test bridge' }));
  // One MCP host, shared by the handlers (Settings, the folder's lifecycle) and the agent.
  const mcp =
    deps.mcp ??
    new McpHost({
      store: new JsonFileMcpSettingsStore(deps.dataDir),
      sandbox: async () => sandboxState(),
      dataFolders: [deps.dataDir],
      childSecrets: storedKeySecrets(secrets),
      ...(mcpTuning ? { tuning: mcpTuning } : {}),
    });
  const runControllerFactory = realAgent
    ? createAgentRunControllerFactory({
        dataDir: deps.dataDir,
        settings,
        secrets,
        permissions,
        grants,
        sandbox: async () => sandboxState(),
        mcp,
      })
    : deps.runControllerFactory;
  const confirmations: ConfirmRequest[] = [];
  let confirmAnswer = true;
  const backend = createHandlers({
    appName: 'Tandem',
    appVersion: '0.0.0-test',
    ...deps,
    confirm:
      deps.confirm ??
      (async (request) => {
        confirmations.push(request);
        return confirmAnswer;
      }),
    sandboxState,
    permissions,
    grants,
    settings,
    secrets,
    mcp,
    ...(runControllerFactory ? { runControllerFactory } : {}),
  });
  const dispatch = createValidatedDispatcher(backend.handlers);
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    ...(admit ? { verifyClient: (info: { req: IncomingMessage }) => admit(info.req) } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });

  const send = (socket: WebSocket, reply: BridgeReply): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
  };

  server.on('connection', (socket) => {
    const unsubscribe = backend.onEvent((event) => send(socket, { kind: 'event', event }));
    socket.on('close', unsubscribe);
    socket.on('message', (data) => {
      const call = parseBridgeCall(String(data));
      if (!call) return;
      dispatch(call.method, call.args).then(
        (value) => send(socket, { kind: 'result', id: call.id, ok: true, value: value ?? null }),
        (error: unknown) =>
          send(socket, {
            kind: 'result',
            id: call.id,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    backend,
    confirmations,
    answerConfirmations(yes) {
      confirmAnswer = yes;
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.dispose();
    },
  };
}
