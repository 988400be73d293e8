// The MCP handlers behind Settings, over the real host and stores: every change that lets more
// run waits for main's own dialog, which shows the exact command lines; a "no" changes nothing.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceInfo } from '../../shared/api';
import type { SandboxState } from '../../shared/tool-types';
import { fixture } from '../../test-support/mcp-servers';
import { contentHash } from '../mcp/mcp-config';
import { McpHost } from '../mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../mcp/mcp-stores';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { createMcpHandlers, type McpHandlers } from './mcp-handlers';
import type { ConfirmRequest } from './setting-confirmation';

// No sandbox: these tests are about the questions, not the servers (which never start here).
const NO_SANDBOX: SandboxState = { kind: 'none', available: false, description: 'no bwrap here' };

let root: string;
let folder: string;
let host: McpHost;
let handlers: McpHandlers;
let asked: ConfirmRequest[];
let answer: boolean;
let workspace: WorkspaceInfo | null;
let permissions: JsonFilePermissionsStore;
let grants: GrantBook;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-handlers-')));
  folder = join(root, 'proj');
  await mkdir(folder);
  const dataDir = join(root, 'data');
  host = new McpHost({
    store: new JsonFileMcpSettingsStore(dataDir),
    sandbox: async () => NO_SANDBOX,
  });
  asked = [];
  answer = true;
  workspace = { folder, name: 'proj', mode: 'ask' };
  permissions = new JsonFilePermissionsStore(dataDir);
  grants = new GrantBook();
  handlers = createMcpHandlers({
    host,
    confirm: async (request) => {
      asked.push(request);
      return answer;
    },
    sandboxState: () => NO_SANDBOX,
    workspace: () => workspace,
    sessionId: () => 'session-1',
    permissions,
    grants,
  });
});
afterEach(async () => {
  await host.close();
  await rm(root, { recursive: true, force: true });
});

const PASTED = JSON.stringify({
  mcpServers: {
    db: { command: 'db-server', args: ['--path', 'my data.sqlite'], env: { DB_TOKEN: 's3cret' } },
    web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t0ken' } },
  },
});

describe('adding app servers', () => {
  it('shows each exact command line in main’s dialog, never the secret values', async () => {
    const overview = await handlers.addMcpServers(PASTED);
    expect(asked).toHaveLength(1);
    const detail = asked[0]?.detail ?? '';
    expect(detail).toContain("• db: db-server --path 'my data.sqlite'\n   (environment: DB_TOKEN)");
    expect(detail).toContain('• web: https://mcp.example.com/mcp\n   (headers: Authorization)');
    expect(detail).toContain('Not sandboxed');
    expect(JSON.stringify(asked)).not.toMatch(/s3cret|t0ken/);
    expect(JSON.stringify(overview)).not.toMatch(/s3cret|t0ken/);
    expect(overview.servers.map((s) => [s.name, s.source, s.envNames, s.headerNames])).toEqual([
      ['db', 'app', ['DB_TOKEN'], []],
      ['web', 'app', [], ['Authorization']],
    ]);
  });

  it('adds nothing when the person says no', async () => {
    answer = false;
    await expect(handlers.addMcpServers(PASTED)).rejects.toThrow(/not confirmed/);
    expect((await handlers.getMcpOverview()).servers).toEqual([]);
  });

  it('makes hidden characters in a command visible in the dialog', async () => {
    const sneaky = JSON.stringify({ mcpServers: { x: { command: 'safe\u202e; rm -rf ~' } } });
    await handlers.addMcpServers(sneaky);
    expect(asked[0]?.detail).toContain('⟨U+202E⟩');
  });

  it.each([
    ['not JSON', '{mcpServers:', /not valid JSON/],
    [
      'a server name with "__"',
      '{"mcpServers":{"a__b":{"command":"x"}}}',
      /no server could be read: a__b: the name may use/i,
    ],
    [
      'a server with neither command nor url',
      '{"mcpServers":{"a":{"args":["x"]}}}',
      /needs a "command"/,
    ],
  ])('refuses %s before asking', async (_what, text, message) => {
    await expect(handlers.addMcpServers(text)).rejects.toThrow(message);
    expect(asked).toEqual([]);
  });
});

describe('choices per server', () => {
  beforeEach(async () => {
    await handlers.addMcpServers(PASTED);
    asked.length = 0;
  });

  it('asks before trusting a server or giving it the project and the network', async () => {
    const overview = await handlers.setMcpServerChoices('app', 'db', {
      trusted: true,
      projectAccess: 'read-write',
      network: true,
    });
    expect(asked[0]?.detail).toMatch(
      /only read will run without asking[\s\S]*change files[\s\S]*reach the network/,
    );
    expect(overview.servers.find((s) => s.name === 'db')?.choices).toEqual({
      trusted: true,
      projectAccess: 'read-write',
      network: true,
    });
  });

  it('a "no" keeps the choices; narrowing never asks', async () => {
    answer = false;
    await expect(
      handlers.setMcpServerChoices('app', 'db', {
        trusted: true,
        projectAccess: 'read-only',
        network: false,
      }),
    ).rejects.toThrow(/stays as it was/);
    answer = true;
    await handlers.setMcpServerChoices('app', 'db', {
      trusted: true,
      projectAccess: 'read-only',
      network: false,
    });
    asked.length = 0;
    const overview = await handlers.setMcpServerChoices('app', 'db', {
      trusted: false,
      projectAccess: 'read-only',
      network: false,
    });
    expect(asked).toEqual([]);
    expect(overview.servers.find((s) => s.name === 'db')?.choices.trusted).toBe(false);
  });
});

describe("accepting a project's .mcp.json", () => {
  beforeEach(async () => {
    const script = fixture('never-answers').args[0] ?? '';
    await writeFile(
      join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { probe: { command: 'node', args: [script], cwd: 'tools' } } }),
    );
    await host.openFolder(folder);
  });

  it('shows the exact command lines in main’s dialog and accepts only the shown content', async () => {
    const before = await handlers.getMcpOverview();
    if (before.project.kind !== 'pending') throw new Error('expected a pending project file');
    await expect(handlers.acceptProjectMcp('f'.repeat(64))).rejects.toThrow(
      /changed after it was shown/,
    );
    expect(asked).toEqual([]);

    answer = false;
    await expect(handlers.acceptProjectMcp(before.project.hash)).rejects.toThrow(
      /none was started/,
    );
    expect((await handlers.getMcpOverview()).project.kind).toBe('pending');

    answer = true;
    const after = await handlers.acceptProjectMcp(before.project.hash);
    expect(asked[1]?.detail).toMatch(/^• probe: node \/\S+never-answers\.mjs\n {3}\(in tools\)/);
    expect(after.project.kind).toBe('accepted');
    expect(after.servers.map((s) => s.name)).toEqual(['probe']);
    const text = await readFile(join(folder, '.mcp.json'), 'utf8');
    expect(before.project.hash).toBe(contentHash(text));
  });

  it('a changed server under an allowed name loses the rules and grants given for the old one, and the dialog says so', async () => {
    await handlers.acceptProjectMcp(contentHash(await readFile(join(folder, '.mcp.json'), 'utf8')));
    await handlers.allowMcpServer('probe', 'always');
    await handlers.allowMcpServer('probe', 'session');
    // An older rule, stored before rules were bound to a definition, and one for another server.
    const other = { kind: 'mcp-server', server: 'other' } as const;
    await permissions.save(folder, {
      ...(await permissions.load(folder)),
      rules: [
        ...(await permissions.load(folder)).rules,
        { rule: { kind: 'tool', tool: 'mcp__probe__wait' }, createdAt: 1 },
        { rule: other, createdAt: 1 },
      ],
    });
    asked.length = 0;

    // A pull puts another program under the name "probe".
    const script = fixture('crash-on-start').args[0] ?? '';
    await writeFile(
      join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { probe: { command: 'node', args: [script] } } }),
    );
    await host.openFolder(folder);
    const changed = await handlers.getMcpOverview();
    if (changed.project.kind !== 'pending') throw new Error('expected a pending project file');

    answer = false;
    await expect(handlers.acceptProjectMcp(changed.project.hash)).rejects.toThrow(/not confirmed/);
    expect(asked[0]?.detail).toContain(
      '2 rules and 1 grant for probe will be removed because its definition (command, arguments, environment, working folder, URL or headers) is not the one they were given for',
    );
    expect((await permissions.load(folder)).rules).toHaveLength(3);

    answer = true;
    await handlers.acceptProjectMcp(changed.project.hash);
    expect((await permissions.load(folder)).rules.map((r) => r.rule)).toEqual([other]);
    expect(grants.active(folder, 'session-1')).toEqual([]);
  });
});

describe('allowing every tool of a server', () => {
  beforeEach(async () => {
    await handlers.addMcpServers(PASTED);
    await host.openFolder(folder);
    asked.length = 0;
  });

  it('"always" stores a per-server rule after main’s dialog', async () => {
    await handlers.allowMcpServer('db', 'always');
    expect(asked[0]?.message).toMatch(/every tool of the MCP server "db" without asking, always/);
    expect((await permissions.load(folder)).rules.map((r) => r.rule)).toEqual([
      { kind: 'mcp-server', server: 'db', definition: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
  });

  it('"for this session" adds a grant for the session', async () => {
    await handlers.allowMcpServer('web', 'session');
    expect(grants.active(folder, 'session-1').map((g) => g.rule)).toEqual([
      { kind: 'mcp-server', server: 'web', definition: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
  });

  it('refuses a server that is not there, and stores nothing on "no"', async () => {
    await expect(handlers.allowMcpServer('nope', 'always')).rejects.toThrow(/no MCP server "nope"/);
    answer = false;
    await expect(handlers.allowMcpServer('db', 'always')).rejects.toThrow(/not confirmed/);
    expect((await permissions.load(folder)).rules).toEqual([]);
  });
});
