// How a local MCP server is launched: the environment it gets (never a secret Tandem holds, from
// wherever it would have come) and, in real bubblewrap, Tandem's data folder covered like it is
// for commands, even where it lies inside the project.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, symlink } from 'node:fs/promises';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MCP_CHOICES, type McpServerChoices } from '../../shared/mcp-types';
import type { SandboxState } from '../../shared/tool-types';
import { probeSandbox } from '../shell/sandbox-probe';
import { prepareSandbox } from '../shell/sandbox-wrap';
import type { McpServerSpec } from './mcp-config';
import { planStdioLaunch, serverEnvironment, type ChildSecrets } from './stdio-launch';

type StdioSpec = Extract<McpServerSpec, { kind: 'stdio' }>;

const KEY = 'sk-test-0123456789abcdef';
const BASE = { PATH: '/usr/bin:/bin', HOME: '/home/someone', LANG: 'C.UTF-8', OTHER: 'x' };

function spec(env: Record<string, string> = {}, command = 'true', args: string[] = []): StdioSpec {
  return { kind: 'stdio', command, args, env, cwd: null };
}

describe('serverEnvironment', () => {
  it.each<[string, Record<string, string | undefined>, ChildSecrets, Record<string, string>]>([
    [
      'PATH, HOME and LANG only',
      BASE,
      { names: [], values: [] },
      { PATH: '/usr/bin:/bin', HOME: '/home/someone', LANG: 'C.UTF-8' },
    ],
    [
      'the variable --api-key-env named is not inherited, whatever its name',
      BASE,
      { names: ['LANG'], values: [] },
      { PATH: '/usr/bin:/bin', HOME: '/home/someone' },
    ],
    [
      'a variable holding the key is not inherited',
      { ...BASE, HOME: `/home/${KEY}` },
      { names: [], values: [KEY] },
      { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
    ],
    [
      "Tandem's own key variables are never passed",
      { ...BASE, OPENAI_API_KEY: KEY, TANDEM_API_KEY: KEY },
      { names: [], values: [] },
      { PATH: '/usr/bin:/bin', HOME: '/home/someone', LANG: 'C.UTF-8' },
    ],
  ])('%s', (_, base, secrets, expected) => {
    expect(serverEnvironment(spec(), base, secrets)).toEqual(expected);
  });

  it("keeps what the server's config names: that is the person's own choice", () => {
    const env = serverEnvironment(spec({ DB_URL: 'postgres://db', LANG: 'de_DE.UTF-8' }), BASE, {
      names: ['LANG'],
      values: [KEY],
    });
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/someone',
      LANG: 'de_DE.UTF-8',
      DB_URL: 'postgres://db',
    });
  });
});

describe("Tandem's data folder inside the project, for a sandboxed server", () => {
  let folder: string;
  let dataDir: string;
  let sandbox: SandboxState;

  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-launch-')));
    dataDir = join(folder, '.tandem-data');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'transcript.jsonl'), 'the data\n');
    await writeFile(join(folder, 'notes.txt'), 'the project\n');
    sandbox = await probeSandbox();
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** Runs `sh -c script` as a server of this project would start, and returns its stdout. */
  async function runAsServer(script: string, dataFolders?: readonly string[]): Promise<string> {
    return runServer(folder, sandbox, script, DEFAULT_MCP_CHOICES, dataFolders);
  }

  it('sees an empty folder there, while the rest of the project stays readable', async () => {
    expect(sandbox.available).toBe(true);
    const script = `ls -A "${dataDir}"; echo "--"; cat "${join(folder, 'notes.txt')}"; cat "${join(dataDir, 'transcript.jsonl')}" 2>/dev/null || echo unreadable`;
    expect(await runAsServer(script, [dataDir])).toBe('--\nthe project\nunreadable\n');
    // Control: the same plan without the data folder shows it, so the wall above is the sandbox's.
    expect(await runAsServer(script)).toBe('transcript.jsonl\n--\nthe project\nthe data\n');
  });
});

/** Runs `sh -c script` as a server of `folder` would start, and returns its stdout. */
async function runServer(
  folder: string,
  sandbox: SandboxState,
  script: string,
  choices: McpServerChoices,
  dataFolders?: readonly string[],
): Promise<string> {
  const launch = await planStdioLaunch({
    spec: spec({}, 'sh', ['-c', script]),
    folder,
    choices,
    sandbox,
    baseEnv: BASE,
    ...(dataFolders ? { dataFolders } : {}),
  });
  try {
    const [program, ...args] = launch.argv;
    const result = spawnSync(program, args, {
      cwd: launch.cwd,
      env: launch.env,
      encoding: 'utf8',
    });
    return result.stdout;
  } finally {
    await launch.finish();
  }
}

// /run holds the session bus and systemd's socket: through them (`systemd-run --user`) a program
// runs outside the sandbox. A person approves each command; no one approves what a server runs.
describe.runIf(writable('/run'))('host sockets, for a sandboxed server', () => {
  let folder: string;
  let inRun: string;
  let sandbox: SandboxState;

  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-sockets-')));
    inRun = await mkdtemp('/run/tandem-mcp-socket-');
    await writeFile(join(inRun, 'bus'), 'a socket stands here\n');
    sandbox = await probeSandbox();
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await rm(inRun, { recursive: true, force: true });
  });

  const look = (): string => `cat "${join(inRun, 'bus')}" 2>/dev/null || echo hidden`;

  it.each<[string, McpServerChoices]>([
    ['read-only', DEFAULT_MCP_CHOICES],
    ['write access', { ...DEFAULT_MCP_CHOICES, projectAccess: 'read-write' }],
    ['write access and network', { trusted: true, projectAccess: 'read-write', network: true }],
  ])('a server with %s sees an empty /run', async (_, choices) => {
    expect(sandbox.available).toBe(true);
    expect(await runServer(folder, sandbox, look(), choices)).toBe('hidden\n');
  });

  it('a command the person approved still sees the host /run (as before)', async () => {
    const prepared = await prepareSandbox(sandbox, {
      folder,
      home: '',
      allowNetwork: false,
      access: { kind: 'read-write', git: 'protected' },
    });
    const command = ['sh', '-c', look()];
    const [program, ...args] = prepared.wrap ? prepared.wrap(command) : command;
    try {
      const result = spawnSync(program ?? 'sh', args, { cwd: folder, encoding: 'utf8' });
      expect(result.stdout).toBe('a socket stands here\n');
    } finally {
      await prepared.finish();
    }
  });
});

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// A server's own install comes back read-only (program-folders.ts): when the folder shown holds
// Tandem's data folder (a script lying directly in ~/.config, beside ~/.config/tandem), that data
// folder must still be covered, wherever the hidden home folder lies.
describe("Tandem's data folder inside a server's program folder", () => {
  let root: string;
  let home: string;
  let dataDir: string;
  let folder: string;
  let sandbox: SandboxState;

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-programs-')));
    home = join(root, 'home');
    dataDir = join(home, '.config', 'tandem');
    folder = join(root, 'project');
    await mkdir(dataDir, { recursive: true });
    await mkdir(folder);
    await writeFile(join(dataDir, 'transcript.jsonl'), 'the data\n');
    await writeFile(
      join(home, '.config', 'server.sh'),
      `ls -A "${dataDir}"; echo "--"; cat "${join(dataDir, 'transcript.jsonl')}" 2>/dev/null || echo unreadable\n`,
    );
    sandbox = await probeSandbox();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stays an empty folder while the server script beside it runs', async () => {
    expect(sandbox.available).toBe(true);
    const launch = await planStdioLaunch({
      spec: spec({}, 'sh', [join(home, '.config', 'server.sh')]),
      folder,
      choices: DEFAULT_MCP_CHOICES,
      sandbox,
      baseEnv: BASE,
      home,
      dataFolders: [dataDir],
    });
    try {
      const [program, ...args] = launch.argv;
      const result = spawnSync(program, args, {
        cwd: launch.cwd,
        env: launch.env,
        encoding: 'utf8',
      });
      expect(result.stdout).toBe('--\nunreadable\n');
    } finally {
      await launch.finish();
    }
  });
});

// A server's own install comes back read-only only where the config names it: a link the project
// holds (the agent can make one) must not pick a folder of the hidden home to show.
describe("a link in the project named by a server's config", () => {
  let home: string;
  let folder: string;
  let sandbox: SandboxState;

  beforeAll(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), 'tandem-mcp-link-home-')));
    folder = join(home, 'project');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await mkdir(folder);
    await writeFile(join(home, '.ssh', 'id'), 'the key\n');
    await writeFile(
      join(folder, 'run.sh'),
      '#!/bin/sh\ncat "$1/id" 2>/dev/null || echo unreadable\n',
    );
    await chmod(join(folder, 'run.sh'), 0o755);
    await symlink('../.ssh', join(folder, 'data'));
    sandbox = await probeSandbox();
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('shows nothing of the home folder it leads to', async () => {
    expect(sandbox.available).toBe(true);
    const launch = await planStdioLaunch({
      spec: spec({}, join(folder, 'run.sh'), [join(folder, 'data')]),
      folder,
      choices: DEFAULT_MCP_CHOICES,
      sandbox,
      baseEnv: BASE,
      home,
    });
    try {
      const [program, ...args] = launch.argv;
      const result = spawnSync(program, args, {
        cwd: launch.cwd,
        env: launch.env,
        encoding: 'utf8',
      });
      expect(result.stdout).toBe('unreadable\n');
    } finally {
      await launch.finish();
    }
  });
});
