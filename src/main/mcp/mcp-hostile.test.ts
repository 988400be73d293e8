// A hostile server, for real (a fixture script under bubblewrap): whatever it sends, the client
// stays bounded and its tools stay as the server lists them.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MCP_CHOICES } from '../../shared/mcp-types';
import { eventually, nodeServer, toolContext } from '../../test-support/mcp-servers';
import { probeSandbox } from '../shell/sandbox-probe';
import { createBuiltinTools } from '../tools/builtin-tools';
import { createToolRegistry, MAX_REQUEST_TOOLS, type ToolRegistry } from '../tools/registry';
import { McpManager } from './mcp-manager';

const HOSTILE = join(__dirname, 'test-fixtures', 'hostile-server.mjs');

let folder: string;
beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-hostile-')));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function call(registry: ToolRegistry, name: string): Promise<string> {
  const prepared = registry.prepare(name, '{}');
  if (!prepared.ok) throw new Error(prepared.message);
  const result = await registry.execute(prepared.tool, prepared.args, toolContext(folder));
  return result.output;
}

describe('a server that floods tools/list_changed', () => {
  let manager: McpManager;
  const registry = createToolRegistry();

  beforeAll(async () => {
    manager = new McpManager(
      [
        {
          name: 'h',
          source: 'app',
          spec: nodeServer(HOSTILE, ['relist', '200', '20']),
          choices: DEFAULT_MCP_CHOICES,
        },
      ],
      { folder, sandbox: await probeSandbox(), connectTimeoutMs: 60_000 },
    );
    manager.attach(registry);
    manager.start();
    await eventually(
      () => manager.overview()[0]?.stderrTail.includes('hostile: flood sent') ?? false,
      'the flood to be sent',
      60_000,
    );
  }, 90_000);
  afterAll(async () => {
    await manager.stop();
  });

  it('is asked for its list one at a time, not once per notification at once', async () => {
    // Let the refreshes the flood caused settle: the last list it sends has the round in it.
    let stats = { lists: 0, openMax: 0 };
    let previous = -1;
    await eventually(
      () => {
        void call(registry, 'mcp__h__stats').then((text) => {
          stats = JSON.parse(text) as typeof stats;
        });
        const still = stats.lists === previous;
        previous = stats.lists;
        return still && stats.lists > 0;
      },
      'the refreshes to stop',
      60_000,
    );
    expect(stats.openMax).toBe(1);
    // 200 notifications in a row need far fewer than 200 lists: the ones that come in while a
    // list is on its way are answered by one more list after it.
    expect(stats.lists).toBeLessThan(20);
  }, 90_000);

  it('keeps every tool whose schema has an $id after relisting, and each is callable', async () => {
    const server = manager.overview()[0];
    expect(server?.problems).toEqual([]);
    expect(server?.tools.map((t) => t.tool).sort()).toContain('t19');
    expect(server?.tools).toHaveLength(21);
    expect(await call(registry, 'mcp__h__t3')).toContain('lists');
  });
});

describe('a server with a giant tool schema', () => {
  it('leaves that tool out, with the reason, and keeps the others', async () => {
    const registry = createToolRegistry();
    const manager = new McpManager(
      [
        {
          name: 'g',
          source: 'app',
          spec: nodeServer(HOSTILE, ['giant', '0', '2']),
          choices: DEFAULT_MCP_CHOICES,
        },
      ],
      { folder, sandbox: await probeSandbox(), connectTimeoutMs: 60_000 },
    );
    manager.attach(registry);
    manager.start();
    try {
      await manager.whenSettled(60_000);
      // Every model request carries every tool's schema: megabytes of it would be sent each turn.
      expect(registry.get('mcp__g__giant')).toBeUndefined();
      expect(registry.get('mcp__g__t1')).toBeDefined();
      expect(manager.overview()[0]?.problems).toEqual([
        expect.stringMatching(/^tool "giant" left out: its input schema is larger than \d+ KB$/),
      ]);
    } finally {
      await manager.stop();
    }
  }, 90_000);
});

// OpenAI refuses a request with more than 128 tools: two servers with 161 tools between them
// must not make every request fail. Built-ins first, then app servers, then project servers.
describe('servers that offer more tools than one request may carry', () => {
  let manager: McpManager;
  const builtins = createBuiltinTools();
  const registry = createToolRegistry(builtins);

  beforeAll(async () => {
    const server = (name: string, source: 'app' | 'project', tools: number) => ({
      name,
      source,
      spec: nodeServer(HOSTILE, ['relist', '0', String(tools)]),
      choices: DEFAULT_MCP_CHOICES,
    });
    // Listed project first: the order sent follows the sources and names, not the list.
    manager = new McpManager([server('a', 'project', 100), server('z', 'app', 60)], {
      folder,
      sandbox: await probeSandbox(),
      connectTimeoutMs: 60_000,
    });
    manager.attach(registry);
    manager.start();
    await manager.whenSettled(60_000);
  }, 90_000);
  afterAll(async () => {
    await manager.stop();
  });

  it('sends at most 128, the built-ins and the app server whole, and says what was left out', () => {
    const sent = registry.definitions().map((d) => d.function.name);
    expect(sent).toHaveLength(MAX_REQUEST_TOOLS);
    expect(sent.slice(0, builtins.length)).toEqual(builtins.map((t) => t.name));
    expect(sent.filter((n) => n.startsWith('mcp__z__'))).toHaveLength(61);
    const kept = MAX_REQUEST_TOOLS - builtins.length - 61;
    expect(sent.filter((n) => n.startsWith('mcp__a__'))).toHaveLength(kept);
    const [a, z] = manager.overview();
    expect(z?.problems).toEqual([]);
    expect(a?.tools).toHaveLength(kept);
    expect(a?.problems).toEqual([
      `${101 - kept} tools left out: a model request carries at most ${MAX_REQUEST_TOOLS} tools, ` +
        'and the built-in tools and the servers before this one (app servers, then project servers, by name) take the rest',
    ]);
  });
});
