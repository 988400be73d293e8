// `tandem mcp list`, `tandem mcp accept` and `tandem run --mcp-config`, in process, with real
// servers from node_modules under bubblewrap and the scripted OpenAI-compatible server.
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/agent-harness';
import { EVERYTHING_ENTRY, fixture } from '../test-support/mcp-servers';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
} from '../main/permissions/project-permissions-store';
import type { CliIo } from './cli-io';
import { main } from './index';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await makeTempDir(prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function memoryIo(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env,
    cwd,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

const EVERYTHING_CONFIG = JSON.stringify({
  mcpServers: { everything: { command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] } },
});

describe('tandem mcp list', () => {
  it('prints servers, their state, confinement and tools with effects', async () => {
    const folder = await tempDir('mcp-cli-proj');
    const dataDir = await tempDir('mcp-cli-data');
    await writeFile(join(dataDir, 'servers.json'), EVERYTHING_CONFIG);
    const { io, stdout } = memoryIo(folder);
    const code = await main(
      [
        'mcp',
        'list',
        '--data-dir',
        dataDir,
        '--mcp-config',
        join(dataDir, 'servers.json'),
        '--mcp-trust',
        'everything',
      ],
      io,
    );
    expect(code).toBe(0);
    const text = stdout();
    expect(text).toMatch(
      /^everything \(cli, stdio\) ready\n {2}node \/\S+server-everything\/dist\/index\.js stdio\n {2}bubblewrap: .*project read-only, network off/,
    );
    expect(text).toContain('trusted: yes; project read-only; network off');
    expect(text).toMatch(/mcp__everything__echo +read +\(read-only, idempotent, closed world\)/);
    expect(text).toMatch(/mcp__everything__gzip-file-as-resource +network/);
    expect(text).toMatch(/mcp__everything__toggle-simulated-logging +exec/);
  });

  it('says a pending .mcp.json starts nothing, and accept (with --yes) makes it start', async () => {
    const folder = await tempDir('mcp-cli-proj');
    const dataDir = await tempDir('mcp-cli-data');
    const script = fixture('crash-on-start').args[0] ?? '';
    await writeFile(
      join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { broken: { command: 'node', args: [script] } } }),
    );
    const before = memoryIo(folder);
    expect(await main(['mcp', 'list', '--data-dir', dataDir, '--wait-ms', '5000'], before.io)).toBe(
      0,
    );
    expect(before.stdout()).toBe(
      'No MCP servers run for this folder.\n' +
        'project .mcp.json: not accepted; its 1 server(s) do not start until you run:\n' +
        `  tandem mcp accept --folder ${folder}\n`,
    );

    const refused = memoryIo(folder);
    expect(await main(['mcp', 'accept', '--data-dir', dataDir], refused.io)).toBe(3);
    expect(refused.stdout()).toContain(`broken: node ${script}`);
    expect(refused.stderr()).toMatch(/no terminal to ask on: pass --yes/);

    const accepted = memoryIo(folder);
    expect(await main(['mcp', 'accept', '--data-dir', dataDir, '--yes'], accepted.io)).toBe(0);
    expect(accepted.stdout()).toMatch(/Accepted\.\n$/);

    // A rule for "broken" as it was; then the file puts another program under that name.
    const permissions = new JsonFilePermissionsStore(dataDir);
    await permissions.save(folder, {
      ...DEFAULT_PERMISSIONS,
      rules: [
        {
          rule: { kind: 'mcp-server', server: 'broken', definition: 'c'.repeat(64) },
          createdAt: 1,
        },
      ],
    });
    await writeFile(
      join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { broken: { command: 'node', args: [script, 'x'] } } }),
    );
    const changed = memoryIo(folder);
    expect(await main(['mcp', 'accept', '--data-dir', dataDir, '--yes'], changed.io)).toBe(0);
    expect(changed.stdout()).toContain(
      '1 rule for broken will be removed because its definition (command, arguments, environment, working folder, URL or headers) is not the one it was given for',
    );
    expect((await permissions.load(folder)).rules).toEqual([]);

    const after = memoryIo(folder);
    expect(await main(['mcp', 'list', '--data-dir', dataDir, '--wait-ms', '5000'], after.io)).toBe(
      0,
    );
    expect(after.stdout()).toMatch(
      /^broken \(project, stdio\) failed: it exited with code 3: fixture: cannot open the database/,
    );
    expect(after.stdout()).toContain('project .mcp.json: accepted');
    // A failed server's last stderr lines, under it.
    expect(after.stdout()).toContain(
      '  stderr (last lines):\n    fixture: cannot open the database at /nowhere/db.sqlite\n',
    );
  });

  it.each([
    [['mcp'], /say "list" or "accept"/],
    [['mcp', 'list', '--mcp-trust', 'x'], /need --mcp-config/],
    [['mcp', 'list', '--wait-ms', 'soon'], /--wait-ms must be a whole number/],
    [['mcp', 'list', '--wait-ms', '1e3'], /--wait-ms must be a whole number .* digits only/],
    [['mcp', 'list', '--wait-ms', '600001'], /from 0 to 600,000/],
    [['mcp', 'list', '--mcp-config', ''], /--mcp-config must name a file/],
  ])('refuses %j with a clear message', async (argv, message) => {
    const folder = await tempDir('mcp-cli-proj');
    const { io, stderr } = memoryIo(folder);
    expect(await main(argv, io)).toBe(2);
    expect(stderr()).toMatch(message);
  });
});

describe('what tandem mcp prints from config files and servers', () => {
  it('shows hidden characters of a command line as escapes, never raw', async () => {
    const folder = await tempDir('mcp-cli-proj');
    const dataDir = await tempDir('mcp-cli-data');
    const script = fixture('crash-on-start').args[0] ?? '';
    const config = join(dataDir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { broken: { command: 'node', args: [script, '\u001b[2J\u202eevil'] } },
      }),
    );
    const { io, stdout } = memoryIo(folder);
    const argv = [
      'mcp',
      'list',
      '--data-dir',
      dataDir,
      '--mcp-config',
      config,
      '--wait-ms',
      '5000',
    ];
    expect(await main(argv, io)).toBe(0);
    expect(stdout()).not.toContain('\u001b');
    expect(stdout()).not.toContain('\u202e');
    expect(stdout()).toContain('\\x1b[2J⟨U+202E⟩evil');
  });

  it('refuses the home folder as a project, like tandem run', async () => {
    const home = await tempDir('mcp-cli-home');
    const dataDir = await tempDir('mcp-cli-data');
    const { io, stderr } = memoryIo(home, { HOME: home });
    expect(await main(['mcp', 'list', '--data-dir', dataDir], io)).toBe(3);
    expect(stderr()).toMatch(/^tandem mcp: Tandem does not work in /);
  });
});

describe('tandem run --mcp-config', () => {
  it('offers the servers’ tools to the model and runs a trusted read', async () => {
    const folder = await tempDir('mcp-cli-proj');
    const dataDir = await tempDir('mcp-cli-data');
    const config = join(dataDir, 'servers.json');
    await writeFile(config, EVERYTHING_CONFIG);
    const server = await startScriptedOpenAIServer({
      turns: [
        { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'from the CLI' } }] },
        { text: 'done' },
      ],
    });
    cleanups.push(() => server.close());
    const { io, stdout, stderr } = memoryIo(folder, { OPENAI_API_KEY: 'k' });
    const code = await main(
      [
        'run',
        '--base-url',
        server.baseUrl,
        '--model',
        'm',
        '--data-dir',
        dataDir,
        '--mcp-config',
        config,
        '--mcp-trust',
        'everything',
        '--json',
        'echo something',
      ],
      io,
    );
    expect(stderr()).toBe('');
    expect(code).toBe(0);
    const events = stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; output?: string; provenance?: string });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      output: 'Echo: from the CLI',
      provenance: 'read-only by the annotations of the trusted MCP server `everything`',
    });
    expect(await readFile(config, 'utf8')).toBe(EVERYTHING_CONFIG);
  });
});

describe('an MCP result on its way to the model', () => {
  it('passes the one secret mask every tool result passes', async () => {
    const folder = await tempDir('mcp-cli-proj');
    const dataDir = await tempDir('mcp-cli-data');
    const config = join(dataDir, 'servers.json');
    await writeFile(config, EVERYTHING_CONFIG);
    // Built at run time: no credential-shaped literal in the repository.
    const token = ['ghp', '_', 'Q7k3M9x4B8n3V6z1L5c2R8t0Y4u7I1o3P6a9'].join('');
    const server = await startScriptedOpenAIServer({
      turns: [
        { toolCalls: [{ id: 'e1', name: 'mcp__everything__echo', arguments: { message: token } }] },
        { text: 'done' },
      ],
    });
    cleanups.push(() => server.close());
    const { io, stdout } = memoryIo(folder, { OPENAI_API_KEY: 'k' });
    const argv = ['run', '--base-url', server.baseUrl, '--model', 'm', '--data-dir', dataDir];
    const mcp = ['--mcp-config', config, '--mcp-trust', 'everything', '--json'];
    expect(await main([...argv, ...mcp, 'echo the token'], io)).toBe(0);
    const toolMessage = server
      .chatBodies()[1]
      ?.messages.find((m) => (m as { role?: string }).role === 'tool') as
      { content?: unknown } | undefined;
    expect(toolMessage?.content).toBe('Echo: [secret masked: GitHub token, 40 chars]');
    const result = stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; secrets?: unknown; unmasked?: string })
      .find((e) => e.type === 'tool-result');
    expect(result?.secrets).toEqual([{ kind: 'GitHub token', chars: 40 }]);
    expect(result?.unmasked).toBe(`Echo: ${token}`);
  });
});
