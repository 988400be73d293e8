// The reference "everything" server, for real: over stdio inside bubblewrap, over Streamable
// HTTP, and over SSE through the fallback. Tools arrive with their schemas, calls go through the
// registry's validation path, annotations become effects, progress becomes output, stop cancels.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MCP_CHOICES } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import {
  eventually,
  everythingStdio,
  startHttpEverything,
  toolContext,
  type HttpEverything,
} from '../../test-support/mcp-servers';
import { probeSandbox } from '../shell/sandbox-probe';
import { createToolRegistry, type ToolRegistry } from '../tools/registry';
import type { McpServerSpec } from './mcp-config';
import { McpManager } from './mcp-manager';

let folder: string;
let sandbox: SandboxState;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-everything-')));
  sandbox = await probeSandbox();
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface Started {
  readonly manager: McpManager;
  readonly registry: ToolRegistry;
}

async function start(spec: McpServerSpec): Promise<Started> {
  const manager = new McpManager(
    [
      {
        name: 'everything',
        source: 'app',
        spec,
        choices: { ...DEFAULT_MCP_CHOICES, trusted: true },
      },
    ],
    { folder, sandbox, connectTimeoutMs: 20_000 },
  );
  const registry = createToolRegistry();
  manager.attach(registry);
  manager.start();
  await manager.whenSettled(25_000);
  const [server] = manager.overview();
  expect(server?.status).toEqual({ state: 'ready' });
  return { manager, registry };
}

async function call(registry: ToolRegistry, name: string, args: Record<string, unknown>) {
  const prepared = registry.prepare(name, JSON.stringify(args));
  if (!prepared.ok) throw new Error(prepared.message);
  const ctx = toolContext(folder);
  const result = await registry.execute(prepared.tool, prepared.args, ctx);
  return { ...result, streamed: ctx.output.join('') };
}

describe.each([
  { transport: 'stdio', open: async () => ({ spec: everythingStdio(), close: async () => {} }) },
  {
    transport: 'Streamable HTTP',
    open: async () => {
      const http: HttpEverything = await startHttpEverything('streamableHttp');
      return {
        spec: { kind: 'http', url: http.url, headers: {} } as McpServerSpec,
        close: http.close,
      };
    },
  },
])('server-everything over $transport', ({ open }) => {
  let started: Started;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await open();
    close = opened.close;
    started = await start(opened.spec);
  });
  afterAll(async () => {
    await started?.manager.stop();
    await close?.();
  });

  it('lists its tools under mcp__everything__ with their JSON Schemas', () => {
    const definitions = started.registry.definitions().map((d) => d.function);
    const echo = definitions.find((d) => d.name === 'mcp__everything__echo');
    expect(echo?.description).toContain('Echoes back the input string');
    expect(echo?.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    expect(definitions.map((d) => d.name)).toEqual(
      expect.arrayContaining(['mcp__everything__get-sum', 'mcp__everything__get-tiny-image']),
    );
  });

  it.each([
    { tool: 'echo', effect: 'read' },
    { tool: 'get-sum', effect: 'read' },
    { tool: 'gzip-file-as-resource', effect: 'network' },
    { tool: 'toggle-simulated-logging', effect: 'exec' },
  ])('maps the annotations of $tool to $effect', ({ tool, effect }) => {
    expect(started.registry.get(`mcp__everything__${tool}`)?.effect).toBe(effect);
    const info = started.manager.overview()[0]?.tools.find((t) => t.tool === tool);
    expect(info?.effect).toBe(effect);
  });

  it('round-trips echo and add through the registry’s validation', async () => {
    expect(
      (await call(started.registry, 'mcp__everything__echo', { message: 'hé 👋' })).output,
    ).toBe('Echo: hé 👋');
    // "5" is coerced to 5 by the same path built-in tools use.
    const sum = await call(started.registry, 'mcp__everything__get-sum', { a: 2, b: '5' });
    expect(sum.output).toBe('The sum of 2 and 5 is 7.');
    const bad = started.registry.prepare('mcp__everything__get-sum', '{"a": 1}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/b/);
  });

  it('returns the image for the trace and describes it to the model', async () => {
    const result = await call(started.registry, 'mcp__everything__get-tiny-image', {});
    expect(result.images).toHaveLength(1);
    expect(result.images?.[0]?.mimeType).toBe('image/png');
    expect(
      Buffer.from(result.images?.[0]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(result.output).toMatch(/\[image 1: image\/png, [\d.]+ KB; shown to the person/);
  });

  it('streams progress notifications as tool output', async () => {
    const result = await call(started.registry, 'mcp__everything__trigger-long-running-operation', {
      duration: 0.3,
      steps: 3,
    });
    expect(result.output).toMatch(/Long running operation completed/);
    // The last notification may race the result (the SDK drops progress after the answer).
    expect(result.streamed).toMatch(/^progress 1\/3\nprogress 2\/3\n/);
  });

  it('stop cancels a long-running call, and the server keeps serving', async () => {
    const controller = new AbortController();
    const prepared = started.registry.prepare(
      'mcp__everything__trigger-long-running-operation',
      JSON.stringify({ duration: 600, steps: 600 }),
    );
    if (!prepared.ok) throw new Error(prepared.message);
    const ctx = toolContext(folder, controller.signal);
    const running = started.registry.execute(prepared.tool, prepared.args, ctx);
    await eventually(() => ctx.output.length > 0, 'the first progress notification');
    controller.abort(new Error('stopped by the person'));
    const result = await running;
    expect(result.outcome).toBe('cancelled');
    expect(started.manager.overview()[0]?.status).toEqual({ state: 'ready' });
    expect(
      (await call(started.registry, 'mcp__everything__echo', { message: 'still' })).output,
    ).toBe('Echo: still');
  });
});

describe('server-everything over SSE only', () => {
  it('is reached through the Streamable HTTP → SSE fallback', async () => {
    const sse = await startHttpEverything('sse');
    try {
      const { manager, registry } = await start({ kind: 'http', url: sse.url, headers: {} });
      expect(manager.overview()[0]?.stderrTail).toMatch(/Streamable HTTP refused .*trying SSE/);
      expect((await call(registry, 'mcp__everything__echo', { message: 'old' })).output).toBe(
        'Echo: old',
      );
      await manager.stop();
    } finally {
      await sse.close();
    }
  });
});

describe('sandbox line', () => {
  it('says plainly how a stdio server is confined, or that it is not', async () => {
    const local = new McpManager(
      [{ name: 'x', source: 'app', spec: everythingStdio(), choices: DEFAULT_MCP_CHOICES }],
      { folder, sandbox: { kind: 'none', available: false, description: 'no bwrap here' } },
    );
    expect(local.overview()[0]?.sandbox).toEqual({
      sandboxed: false,
      description: 'Not sandboxed: no bwrap here This server runs with your full permissions.',
    });
  });
});
