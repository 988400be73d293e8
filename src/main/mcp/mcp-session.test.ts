// MCP servers in a real session: the workspace agent with the real permission gate, the scripted
// OpenAI-compatible server, and real servers under bubblewrap. server-filesystem, trusted and
// pointed at the project and the home folder: its reads run, its writes ask, and inside the
// sandbox it cannot read the home folder its arguments name. Failing servers leave the session
// working. A project's .mcp.json starts nothing before it is accepted, and asks again when changed.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { DEFAULT_MCP_CHOICES } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import {
  eventually,
  FILESYSTEM_ENTRY,
  fixture,
  nodeServer,
  toolContext,
} from '../../test-support/mcp-servers';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../../test-support/scripted-openai-server';
import { createOpenAIProvider } from '../agent/provider';
import { openWorkspaceAgent } from '../agent/workspace-agent';
import { ApprovalBroker, type PendingApproval } from '../permissions/approval-broker';
import { createPermissionGate } from '../permissions/create-permission-gate';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { probeSandbox } from '../shell/sandbox-probe';
import { createToolRegistry } from '../tools/registry';
import { contentHash } from './mcp-config';
import { McpHost } from './mcp-host';
import { McpManager } from './mcp-manager';
import { JsonFileMcpSettingsStore } from './mcp-stores';

let folder: string;
let dataDir: string;
let sandbox: SandboxState;
const homeProbe = join(homedir(), `.tandem-mcp-home-probe-${process.pid}`);
const HOME_SECRET = `home-secret-${process.pid}`;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-session-')));
  dataDir = await mkdtemp(join(tmpdir(), 'tandem-mcp-session-data-'));
  sandbox = await probeSandbox();
  await writeFile(join(folder, 'notes.txt'), 'the project notes\n');
  await writeFile(homeProbe, HOME_SECRET);
});
afterAll(async () => {
  await rm(homeProbe, { force: true });
  await rm(folder, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function filesystemServer() {
  // Its arguments name the project and the home folder: only the sandbox stands between them.
  return nodeServer(FILESYSTEM_ENTRY, [folder, homedir()]);
}

describe('server-filesystem in a session', () => {
  let openai: ScriptedServer;
  let host: McpHost;
  let events: RunEvent[];
  const asked: PendingApproval[] = [];

  beforeAll(async () => {
    expect(sandbox.available).toBe(true);
    const store = new JsonFileMcpSettingsStore(dataDir);
    await store.saveApp({
      servers: {
        filesystem: {
          config: { command: 'node', args: [FILESYSTEM_ENTRY, folder, homedir()] },
          choices: { ...DEFAULT_MCP_CHOICES, trusted: true },
        },
        crashes: {
          config: { command: 'node', args: [fixture('crash-on-start').args[0] ?? ''] },
          choices: DEFAULT_MCP_CHOICES,
        },
        silent: {
          config: { command: 'node', args: [fixture('never-answers').args[0] ?? ''] },
          choices: DEFAULT_MCP_CHOICES,
        },
      },
    });
    host = new McpHost({
      store,
      sandbox: async () => sandbox,
      tuning: { connectTimeoutMs: 10_000, restartDelaysMs: [] },
    });
    openai = await startScriptedOpenAIServer({
      turns: [
        {
          toolCalls: [
            {
              name: 'mcp__filesystem__read_text_file',
              arguments: { path: join(folder, 'notes.txt') },
            },
            {
              name: 'mcp__filesystem__write_file',
              arguments: { path: join(folder, 'new.txt'), content: 'written' },
            },
            { name: 'mcp__filesystem__read_text_file', arguments: { path: homeProbe } },
            { name: 'read_file', arguments: { path: 'notes.txt' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const gate = createPermissionGate({
      store: new JsonFilePermissionsStore(dataDir),
      grants: new GrantBook(),
      broker: new ApprovalBroker(),
      // The person says no to every card; the test reads which cards were shown.
      asker: {
        ask(request, respond) {
          asked.push(request);
          respond({ kind: 'deny' });
        },
      },
      sandbox,
    });
    await host.openFolder(folder);
    // The filesystem server is up before the task (a loaded machine can take seconds to start
    // Node); the silent one is still starting, so the run's first request waits for it only
    // as long as MCP_FIRST_REQUEST_WAIT_MS, then goes on without it.
    await eventually(
      () => host.connectionState('filesystem') === 'ready',
      'the filesystem server to be ready',
    );
    const workspace = await openWorkspaceAgent({
      folder,
      dataDir,
      provider: createOpenAIProvider({ baseUrl: openai.baseUrl, model: 'm', apiKey: 'k' }),
      gate,
      mcp: host,
    });
    events = [];
    workspace.agent.onEvent((event) => events.push(event));
    const run = workspace.agent.startRun('look around');
    expect(await run.done).toBe('done');
    await workspace.close();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await openai?.close();
  });

  const resultOf = (index: number) => {
    const started = events.filter((e) => e.type === 'tool-call-started')[index];
    const result = events.find((e) => e.type === 'tool-result' && e.callId === started?.callId);
    if (result?.type !== 'tool-result') throw new Error(`no result for call ${index}`);
    return result;
  };

  it('offers the MCP tools from the first model request', () => {
    const names = (openai.chatBodies()[0]?.tools ?? []).map(
      (t) => (t as { function: { name: string } }).function.name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'read_file',
        'mcp__filesystem__read_text_file',
        'mcp__filesystem__write_file',
      ]),
    );
  });

  it('runs a read of the trusted server without asking, and says why', () => {
    const read = resultOf(0);
    expect(read.ok).toBe(true);
    expect(read.output).toBe('the project notes\n');
    expect(read.provenance).toBe(
      'read-only by the annotations of the trusted MCP server `filesystem`',
    );
    // MCP content taints the session, as a fetch does.
    expect(read.taintedBy).toBe('after running mcp__filesystem__read_text_file');
  });

  it('asks before a write, and a denied write does not happen', () => {
    expect(asked.map((a) => a.name)).toEqual(['mcp__filesystem__write_file']);
    expect(asked[0]?.reasons.join('\n')).toMatch(/destructive/);
    expect(resultOf(1).ok).toBe(false);
    expect(existsSync(join(folder, 'new.txt'))).toBe(false);
  });

  it('cannot read the home folder inside the sandbox, even though its arguments name it', () => {
    const home = resultOf(2);
    expect(home.output).not.toContain(HOME_SECRET);
    expect(home.output).toMatch(/ENOENT|no such file/i);
  });

  it('keeps the session working while other servers failed', async () => {
    expect(resultOf(3)).toMatchObject({
      ok: true,
      output: expect.stringContaining('the project notes'),
    });
    await host.whenSettled(30_000);
    const overview = await host.overview();
    const states = Object.fromEntries(overview.servers.map((s) => [s.name, s.status.state]));
    expect(states).toEqual({ filesystem: 'ready', crashes: 'failed', silent: 'failed' });
  });

  it('(control) the same server outside a sandbox does read the home folder', async () => {
    const manager = new McpManager(
      [
        {
          name: 'filesystem',
          source: 'app',
          spec: filesystemServer(),
          choices: DEFAULT_MCP_CHOICES,
        },
      ],
      { folder, sandbox: { kind: 'none', available: false, description: 'off for the control' } },
    );
    const registry = createToolRegistry();
    manager.attach(registry);
    manager.start();
    await manager.whenSettled(20_000);
    const tool = registry.get('mcp__filesystem__read_text_file');
    if (!tool) throw new Error('no read tool');
    const result = await registry.execute(tool, { path: homeProbe }, toolContext(folder));
    await manager.stop();
    expect(result.output).toBe(HOME_SECRET);
  });
});

describe("a project's .mcp.json", () => {
  let project: string;
  let host: McpHost;
  const registry = createToolRegistry();

  const mcpJson = (extraArg: string | null) =>
    JSON.stringify({
      mcpServers: {
        probe: {
          command: 'node',
          args: [fixture('probe-server').args[0] ?? '', ...(extraArg ? [extraArg] : [])],
          // Other tools' auto-approve lists are ignored: a file never decides what runs.
          autoApprove: ['wait'],
        },
      },
    });

  beforeAll(async () => {
    project = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-project-')));
    await writeFile(join(project, '.mcp.json'), mcpJson(null));
    host = new McpHost({
      // A data folder of its own: no app servers, only the project's file.
      store: new JsonFileMcpSettingsStore(join(project, '..', `${basename(project)}-data`)),
      sandbox: async () => sandbox,
      tuning: { connectTimeoutMs: 10_000 },
    });
    host.attach(registry);
  });
  afterAll(async () => {
    await host.close();
    await rm(project, { recursive: true, force: true });
    await rm(join(project, '..', `${basename(project)}-data`), { recursive: true, force: true });
  });

  it('is not started before the person accepts it', async () => {
    await host.openFolder(project);
    const overview = await host.overview();
    expect(overview.servers.filter((s) => s.source === 'project')).toEqual([]);
    expect(registry.list().filter((t) => t.name.startsWith('mcp__probe__'))).toEqual([]);
    expect(overview.project).toMatchObject({
      kind: 'pending',
      changed: false,
      servers: [
        {
          name: 'probe',
          transport: 'stdio',
          commandLine: expect.stringMatching(/^node \/.*probe-server\.mjs$/),
        },
      ],
      problems: ['probe: ignored "autoApprove"'],
    });
  });

  it('starts once accepted, for exactly the content that was shown', async () => {
    await expect(host.acceptProject('0'.repeat(64))).rejects.toThrow(/changed after it was shown/);
    const hash = contentHash(await readFile(join(project, '.mcp.json'), 'utf8'));
    await host.acceptProject(hash);
    await host.whenSettled(15_000);
    const overview = await host.overview();
    expect(overview.project.kind).toBe('accepted');
    expect(overview.servers.map((s) => [s.name, s.source, s.status.state])).toEqual([
      ['probe', 'project', 'ready'],
    ]);
    expect(registry.get('mcp__probe__wait')).toBeDefined();
  });

  it('asks again when a command changed, and starts nothing meanwhile', async () => {
    await writeFile(join(project, '.mcp.json'), mcpJson('--changed'));
    await host.openFolder(project); // the next session of this folder
    const overview = await host.overview();
    expect(overview.project).toMatchObject({ kind: 'pending', changed: true });
    expect(overview.servers).toEqual([]);
    expect(registry.get('mcp__probe__wait')).toBeUndefined();
  });
});
