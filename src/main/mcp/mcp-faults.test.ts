// Servers that misbehave, for real (fixture scripts under bubblewrap): one that crashes on start,
// one that never answers, one that prints 50 MB to stderr, and a scripted one for cancellation,
// stalled calls, broken schemas, error results, protocol errors, mixed content, its environment
// and a changing tool list. Each gets a clear state or result; none blocks anyone.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MCP_CHOICES, type McpServerInfo } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { eventually, fixture, toolContext } from '../../test-support/mcp-servers';
import { probeSandbox } from '../shell/sandbox-probe';
import { createToolRegistry, type ToolRegistry } from '../tools/registry';
import { DEFAULT_LOG_CHARS } from './bounded-log';
import type { McpServerEntry } from './mcp-connection';
import { McpManager } from './mcp-manager';

let folder: string;
let sandbox: SandboxState;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-faults-')));
  sandbox = await probeSandbox();
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function entry(name: string, spec: McpServerEntry['spec']): McpServerEntry {
  return { name, source: 'app', spec, choices: DEFAULT_MCP_CHOICES };
}

function serverNamed(manager: McpManager, name: string): McpServerInfo {
  const found = manager.overview().find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
}

async function call(registry: ToolRegistry, name: string, args: object, signal?: AbortSignal) {
  const prepared = registry.prepare(name, JSON.stringify(args));
  if (!prepared.ok) throw new Error(prepared.message);
  return registry.execute(prepared.tool, prepared.args, toolContext(folder, signal));
}

describe('servers that fail', () => {
  let manager: McpManager;
  let flooding: McpManager;
  let registry: ToolRegistry;

  beforeAll(async () => {
    registry = createToolRegistry();
    manager = new McpManager(
      [entry('crashes', fixture('crash-on-start')), entry('silent', fixture('never-answers'))],
      { folder, sandbox, connectTimeoutMs: 1500, restartDelaysMs: [50, 50] },
    );
    // Writing 50 MB first takes a while on a loaded machine: its own, longer time limit.
    flooding = new McpManager([entry('flood', fixture('stderr-flood'))], {
      folder,
      sandbox,
      connectTimeoutMs: 60_000,
    });
    for (const m of [manager, flooding]) {
      m.attach(registry);
      m.start();
    }
  });
  afterAll(async () => {
    await manager.stop();
    await flooding.stop();
  });

  it('a server that crashes on start is failed with its exit and last words, after its retries', async () => {
    await eventually(() => {
      const s = serverNamed(manager, 'crashes').status;
      return s.state === 'failed' && s.retryAt === null;
    }, 'the crashing server to give up');
    const server = serverNamed(manager, 'crashes');
    expect(server.status).toMatchObject({
      state: 'failed',
      reason: 'it exited with code 3: fixture: cannot open the database at /nowhere/db.sqlite',
    });
    // Three attempts: the first and two restarts with backoff.
    expect(server.stderrTail.match(/^fixture: cannot open the database/gm)).toHaveLength(3);
    expect(server.tools).toEqual([]);
  });

  it('a server that never answers is failed with the time limit, not waited on forever', async () => {
    await eventually(() => {
      const s = serverNamed(manager, 'silent').status;
      return s.state === 'failed' && s.retryAt === null;
    }, 'the silent server to give up');
    expect(serverNamed(manager, 'silent').status).toMatchObject({
      reason: 'it did not answer within 1.5 s',
    });
  });

  it('a server that prints 50 MB to stderr keeps only the tail, and still serves', async () => {
    await eventually(
      () => serverNamed(flooding, 'flood').status.state === 'ready',
      'the flooding server to be ready',
      80_000,
    );
    const server = serverNamed(flooding, 'flood');
    const connection = flooding.connection('flood');
    expect(connection?.log.length).toBeLessThanOrEqual(DEFAULT_LOG_CHARS);
    expect(connection?.log.dropped).toBeGreaterThan(50 * 1024 * 1024 - DEFAULT_LOG_CHARS);
    expect(server.stderrTail).toMatch(/^\[… [\d,]+ earlier characters not kept …\]\n/);
    expect(server.stderrTail).toMatch(/fixture: flood done\n$/);
    expect((await call(registry, 'mcp__flood__ping', {})).output).toBe('pong');
  }, 100_000);

  it('the failed servers offer no tools; the working one does', () => {
    expect(registry.list().map((t) => t.name)).toEqual(['mcp__flood__ping']);
  });
});

describe('a scripted server', () => {
  let manager: McpManager;
  let registry: ToolRegistry;

  beforeAll(async () => {
    manager = new McpManager(
      [
        {
          ...entry('probe', { ...fixture('probe-server'), env: { PROBE_TOKEN: 'configured' } }),
        },
      ],
      { folder, sandbox, connectTimeoutMs: 10_000, callTimeoutMs: 1000, restartDelaysMs: [100] },
    );
    registry = createToolRegistry();
    manager.attach(registry);
    manager.start();
    await manager.whenSettled(15_000);
    expect(serverNamed(manager, 'probe').status).toEqual({ state: 'ready' });
  });
  afterAll(async () => {
    await manager.stop();
  });

  it('reports a tool whose schema does not compile and keeps the others', () => {
    expect(serverNamed(manager, 'probe').problems).toEqual([
      expect.stringMatching(/^tool "broken" left out: its input schema does not compile/),
    ]);
    expect(registry.get('mcp__probe__broken')).toBeUndefined();
    expect(registry.get('mcp__probe__wait')).toBeDefined();
  });

  it('stop sends notifications/cancelled: the server sees its call cancelled', async () => {
    const controller = new AbortController();
    const running = call(registry, 'mcp__probe__wait', {}, controller.signal);
    setTimeout(() => controller.abort(new Error('stopped by the person')), 100);
    expect((await running).outcome).toBe('cancelled');
    await eventually(
      () => serverNamed(manager, 'probe').stderrTail.includes('wait was cancelled by the client'),
      'the server to log the cancellation',
    );
  });

  it('a call that never returns times out and says so; the server stays usable', async () => {
    const result = await call(registry, 'mcp__probe__stall', {});
    expect(result.outcome).toBe('timeout');
    expect(result.output).toMatch(/timed out after 1 s and was stopped/);
    expect((await call(registry, 'mcp__probe__fail', {})).ok).toBe(false);
  });

  it('an isError result is an error result the model reads', async () => {
    const result = await call(registry, 'mcp__probe__fail', {});
    expect(result).toMatchObject({ ok: false, outcome: 'error' });
    expect(result.output).toBe(
      'The MCP tool reported an error (server "probe"):\nthe table "users" does not exist',
    );
  });

  it('a protocol error is a result the model can act on', async () => {
    const result = await call(registry, 'mcp__probe__refuse', {});
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(
      /^Error: the MCP server "probe" answered the call of "refuse" with an error \(code -32602\): .*query must not be empty/,
    );
  });

  it('describes links, embedded resources, structured content and unshowable images', async () => {
    const result = await call(registry, 'mcp__probe__mixed', {});
    expect(result.output.split('\n')).toEqual([
      'three rows',
      '[resource link: rows.csv <file:///data/rows.csv> (text/csv)]',
      '[embedded resource <memo://1>, text/plain]',
      'embedded memo',
      '[image 1: image/svg+xml, 11 bytes; not shown: only PNG, JPEG, GIF and WebP images are shown]',
      'Structured content:',
      '{',
      '  "rows": 3',
      '}',
    ]);
    expect(result.images).toBeUndefined();
  });

  it('gets only the environment its config names, plus PATH, HOME and LANG', async () => {
    const names = (await call(registry, 'mcp__probe__env', {})).output.split(',');
    // PWD is bubblewrap's own: the working folder it changed into.
    const allowed = new Set(['PATH', 'HOME', 'LANG', 'PROBE_TOKEN', 'PWD']);
    expect(names.filter((n) => !allowed.has(n))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'PROBE_TOKEN']));
  });

  it('a crash while ready fails the call with a clear result, then the server restarts', async () => {
    const states: string[] = [];
    const result = await call(registry, 'mcp__probe__crash', {});
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(
      /^Error: the MCP server "probe" answered the call of "crash"|^Error: calling "crash" on the MCP server "probe" failed/,
    );
    await eventually(() => {
      const status = serverNamed(manager, 'probe').status;
      if (states.at(-1) !== status.state) states.push(status.state);
      return status.state === 'ready' && states.includes('failed');
    }, 'the server to fail and come back');
    expect(serverNamed(manager, 'probe').stderrTail).toMatch(
      /fixture: crashing on purpose\n\[tandem\] the server stopped unexpectedly: it exited with code 1\n/,
    );
    // Its tools are back after the restart.
    expect((await call(registry, 'mcp__probe__fail', {})).outcome).toBe('error');
  });

  it('follows tools/list_changed', async () => {
    expect(registry.get('mcp__probe__grown')).toBeUndefined();
    await call(registry, 'mcp__probe__grow', {});
    await eventually(() => registry.get('mcp__probe__grown') !== undefined, 'the new tool');
  });
});
