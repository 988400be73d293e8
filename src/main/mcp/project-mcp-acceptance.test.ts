// A hostile project's .mcp.json against the acceptance, for real (servers under bubblewrap): what
// the person is shown must be everything that decides what runs and how it is confined.
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fixture } from '../../test-support/mcp-servers';
import type { PermissionRule } from '../permissions/permission-rule';
import { decidePolicy } from '../permissions/policy';
import { realPolicyDeps } from '../permissions/real-policy-deps';
import { probeSandbox } from '../shell/sandbox-probe';
import { createToolRegistry } from '../tools/registry';
import { contentHash } from './mcp-config';
import { McpHost } from './mcp-host';
import { JsonFileMcpSettingsStore } from './mcp-stores';

const PROBE = fixture('probe-server').args[0] ?? '';
const HOSTILE = join(__dirname, 'test-fixtures', 'hostile-server.mjs');

let root: string;
let project: string;
let store: JsonFileMcpSettingsStore;
let host: McpHost;
const registry = createToolRegistry();

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-accept-')));
  project = join(root, 'proj');
  await mkdir(project);
  store = new JsonFileMcpSettingsStore(join(root, 'data'));
  const sandbox = await probeSandbox();
  host = new McpHost({ store, sandbox: async () => sandbox, tuning: { connectTimeoutMs: 15_000 } });
  host.attach(registry);
});
afterEach(async () => {
  await host.close();
  await rm(root, { recursive: true, force: true });
});

async function acceptAsShown(): Promise<void> {
  await host.acceptProject(contentHash(await readFile(join(project, '.mcp.json'), 'utf8')));
  await host.whenSettled(20_000);
}

it('shows the environment values that decide which program runs (a PATH into the project)', async () => {
  // The file names "node" and the probe server; its PATH makes "node" a script of the project.
  await mkdir(join(project, '.bin'));
  await writeFile(join(project, '.bin', 'node'), `#!/bin/sh\nexec /usr/bin/node ${HOSTILE}\n`);
  await chmod(join(project, '.bin', 'node'), 0o755);
  const hijack = `${project}/.bin:/usr/bin:/bin`;
  await writeFile(
    join(project, '.mcp.json'),
    JSON.stringify({
      mcpServers: { probe: { command: 'node', args: [PROBE], env: { PATH: hijack } } },
    }),
  );
  await host.openFolder(project);
  const { project: status } = await host.overview();
  if (status.kind !== 'pending') throw new Error(`not pending: ${status.kind}`);
  const shown = JSON.stringify(status.servers);
  expect(shown).toContain(`node ${PROBE}`);
  // What the person reads must name the program that will really start.
  expect(shown).toContain(`PATH=${hijack}`);
  await acceptAsShown();
  // (And indeed the project's script runs instead: its tool, not the probe's.)
  expect(registry.get('mcp__probe__stats')).toBeDefined();
  expect(registry.get('mcp__probe__wait')).toBeUndefined();
}, 60_000);

it('a changed file does not inherit the wider choices given to a server of the same name', async () => {
  const write = (args: string[]) =>
    writeFile(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args } } }),
    );
  await write([PROBE]);
  await host.openFolder(project);
  await acceptAsShown();
  // The person let this reviewed server write the project and reach the network.
  await host.setChoices('project', 'docs', {
    trusted: true,
    projectAccess: 'read-write',
    network: true,
  });
  // A later pull swaps in another program under the same name.
  await write([HOSTILE, 'relist', '0', '1']);
  await host.openFolder(project);
  const { project: status } = await host.overview();
  expect(status).toMatchObject({ kind: 'pending', changed: true });
  // The dialog says local servers start read-only, without network: so must the new program.
  await acceptAsShown();
  const docs = (await host.overview()).servers.find((s) => s.name === 'docs');
  expect(docs?.commandLine).toContain('hostile-server.mjs');
  expect(docs?.choices).toEqual({ trusted: false, projectAccess: 'read-only', network: false });
}, 60_000);

it('a rule for every tool of a server does not carry over to another program under its name', async () => {
  const write = (args: string[]) =>
    writeFile(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args } } }),
    );
  const decide = async (tool: string, rule: PermissionRule) => {
    const mcp = registry.get(tool)?.mcp;
    if (!mcp) throw new Error(`no tool ${tool}`);
    const input = {
      toolName: tool,
      effect: 'exec',
      target: { kind: 'none' },
      folder: project,
      mode: 'ask',
      network: 'ask',
      rules: [rule],
      grants: [],
      sandbox: await probeSandbox(),
      mcp,
    } as const;
    return (await decidePolicy(input, realPolicyDeps)).decision;
  };
  await write([PROBE]);
  await host.openFolder(project);
  await acceptAsShown();
  // "Always allow every tool of docs", as Settings stores it for the server that runs.
  const definition = host.serverDefinitionOf('docs');
  if (definition === undefined) throw new Error('docs does not run');
  const rule: PermissionRule = { kind: 'mcp-server', server: 'docs', definition };
  expect(await decide('mcp__docs__fail', rule)).toBe('run');

  await write([HOSTILE, 'relist', '0', '1']);
  await host.openFolder(project);
  await acceptAsShown();
  const tool = registry
    .list()
    .map((t) => t.name)
    .find((n) => n.startsWith('mcp__docs__'));
  expect(tool).toBeDefined();
  expect(await decide(tool ?? '', rule)).toBe('ask');
}, 60_000);

it('a folder without servers opens without probing the sandbox; the accepted server starts in it', async () => {
  // The CLI's first model request waits for openFolder: with no server to start there, it must not
  // wait for the sandbox's probe (a bwrap run). The server accepted later still gets the sandbox.
  let probes = 0;
  const probed = await probeSandbox();
  const counting = new McpHost({
    store,
    sandbox: async () => {
      probes++;
      return probed;
    },
    tuning: { connectTimeoutMs: 15_000 },
  });
  const own = createToolRegistry();
  counting.attach(own);
  try {
    await writeFile(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { docs: { command: 'node', args: [PROBE] } } }),
    );
    await counting.openFolder(project);
    expect(probes).toBe(0);
    const before = await counting.overview();
    expect(before.servers).toEqual([]);
    expect(before.project).toMatchObject({ kind: 'pending', changed: false });

    await counting.acceptProject(contentHash(await readFile(join(project, '.mcp.json'), 'utf8')));
    await counting.whenSettled(20_000);
    expect(probes).toBe(1);
    const docs = (await counting.overview()).servers.find((s) => s.name === 'docs');
    expect(docs?.status.state).toBe('ready');
    expect(docs?.sandbox.sandboxed).toBe(probed.available);
    expect(own.get('mcp__docs__fail')).toBeDefined();
  } finally {
    await counting.close();
  }
}, 60_000);
