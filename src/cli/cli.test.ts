import { spawn } from 'node:child_process';
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { projectDataDir } from '../main/store/data-dir';
import { createOpenAIProvider } from '../main/agent/provider';
import { openWorkspaceAgent } from '../main/agent/workspace-agent';
import { allowAll, makeTempDir, testTools } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedTurn,
} from '../test-support/scripted-openai-server';
import type { CliIo } from './cli-io';
import { main } from './index';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  turns: ScriptedTurn[],
): Promise<{ server: ScriptedServer; folder: string; dataDir: string; args: string[] }> {
  const server = await startScriptedOpenAIServer({ turns });
  const folder = await makeTempDir('cli-proj');
  const dataDir = await makeTempDir('cli-data');
  cleanups.push(
    () => server.close(),
    () => rm(folder, { recursive: true, force: true }),
    () => rm(dataDir, { recursive: true, force: true }),
  );
  // `tandem run` against this server and data dir; callers add flags and the task.
  const args = ['run', '--base-url', server.baseUrl, '--model', 'm', '--data-dir', dataDir];
  return { server, folder, dataDir, args };
}

/** No window settings: the person's own (if any) must not leak into these tests. */
const NO_WINDOW = { TANDEM_USER_DATA_DIR: join(tmpdir(), `tandem-no-window-${process.pid}`) };

function memoryIo(env: NodeJS.ProcessEnv, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env: { ...NO_WINDOW, ...env },
    cwd,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('tandem run (spawned)', () => {
  it('--json prints one RunEvent per line and exits 0', async () => {
    const { server, folder, dataDir } = await setup([{ text: 'All good ✓' }]);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/index.ts',
        'run',
        '--folder',
        folder,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--data-dir',
        dataDir,
        '--json',
        'say hi',
      ],
      { env: { ...process.env, OPENAI_API_KEY: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string; reason?: string });
    expect(events.every((e) => typeof e.type === 'string')).toBe(true);
    expect(events[0]?.type).toBe('run-started');
    expect(
      events
        .filter((e) => e.type === 'assistant-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('All good ✓');
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', reason: 'done' });
    expect(server.chatBodies()[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'say hi' });
  });
});

describe('tandem run (in-process)', () => {
  const base = ['run', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'];
  it.each([
    {
      case: 'unknown flag',
      argv: [...base, '--colour', 'x', 'task'],
      line: /^tandem run: Unknown option '--colour'$/,
    },
    {
      case: 'bad mode',
      argv: [...base, '--mode', 'yolo', 'task'],
      line: /--mode must be one of ask, auto-edit, read-only, autonomous \(got "yolo"\)/,
    },
    {
      case: 'bad max-steps',
      argv: [...base, '--max-steps', '0', 'task'],
      line: /--max-steps must be a whole number/,
    },
    {
      case: 'empty model',
      argv: ['run', '--base-url', 'http://x/v1', '--model', '', 'task'],
      line: /--model must not be empty/,
    },
    {
      case: 'base url without scheme',
      argv: ['run', '--model', 'm', '--base-url', 'localhost:1234', 'task'],
      line: /--base-url must be an http:\/\/ or https:\/\/ URL with a host/,
    },
    { case: 'no task', argv: base, line: /no task given/ },
  ])('bad flags: $case → exit 2 with one line', async ({ argv, line }) => {
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k' }, '/');
    expect(await main(argv, io)).toBe(2);
    const [first] = stderr().split('\n');
    expect(first).toMatch(line);
  });

  it('--version prints the version from package.json', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { io, stdout } = memoryIo({}, '/');
      expect(await main([flag], io)).toBe(0);
      expect(stdout()).toBe(`tandem ${version}\n`);
    }
  });

  it.each([
    {
      argv: ['--help'],
      shows: ['Commands:', '  run ', '  sessions ', '  undo ', '  policy ', 'Examples:'],
    },
    {
      argv: ['run', '--help'],
      shows: ['Usage: tandem run', '--no-color', 'Examples:', 'Exit codes:'],
    },
    { argv: ['sessions', '--help'], shows: ['Usage: tandem sessions', 'Examples:'] },
    {
      argv: ['undo', '--help'],
      shows: ['Usage: tandem undo', '--call ID', '--run ID', 'Examples:'],
    },
    { argv: ['policy', '--help'], shows: ['usage: tandem policy', 'Examples:'] },
  ])('$argv prints help with examples on stdout, exit 0', async ({ argv, shows }) => {
    const { io, stdout, stderr } = memoryIo({}, '/');
    expect(await main(argv, io)).toBe(0);
    for (const text of shows) expect(stdout()).toContain(text);
    expect(stderr()).toBe('');
  });

  it('unknown command → exit 2', async () => {
    const { io, stderr } = memoryIo({}, '/');
    expect(await main(['fly'], io)).toBe(2);
    expect(stderr()).toBe(
      'tandem: unknown command "fly" (commands: run, sessions, undo, policy, mcp)\n',
    );
  });

  it('a folder that does not exist → exit 3', async () => {
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k' }, '/');
    expect(await main([...base, '--folder', '/nonexistent/tandem-x', 'task'], io)).toBe(3);
    expect(stderr()).toBe('tandem run: folder does not exist: /nonexistent/tandem-x\n');
  });

  it.each([
    { case: 'the file system root', folder: () => '/', why: 'it is the root of a file system' },
    { case: 'the home folder', folder: (home: string) => home, why: 'it is your home folder' },
  ])('refuses $case as the window does → exit 3', async ({ folder, why }) => {
    const home = await makeTempDir('cli-home');
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k', HOME: home }, '/');
    expect(await main([...base, '--folder', folder(home), 'task'], io)).toBe(3);
    expect(stderr()).toContain(`Tandem does not work in ${folder(home)}: ${why}`);
  });

  it('a missing key → exit 3 naming the variable', async () => {
    const { folder } = await setup([]);
    const { io, stderr } = memoryIo({}, folder);
    expect(await main([...base, '--api-key-env', 'MY_KEY', 'task'], io)).toBe(3);
    expect(stderr()).toMatch(/^tandem run: missing API key: set MY_KEY \(/);
    expect(stderr().trim().split('\n')).toHaveLength(1);
  });

  it('a damaged permissions file → exit 3 naming the file, before asking the model', async () => {
    const { server, folder, dataDir, args } = await setup([{ text: 'all good' }]);
    const file = join(projectDataDir(dataDir, await realpath(folder)), 'permissions.json');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '{ broken');
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(await main([...args, 'read x.txt'], io, { createTools: () => testTools() })).toBe(3);
    expect(stderr().trim().split('\n')).toHaveLength(1);
    expect(stderr()).toContain(`tandem run: cannot read the project's permissions: ${file}`);
    expect(server.chatBodies()).toHaveLength(0);
  });

  it('an unreachable provider → exit 1 with the reason', async () => {
    const { folder, dataDir } = await setup([]);
    const port = await closedPort();
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k', TANDEM_RETRY_BASE_MS: '1' }, folder);
    expect(
      await main(
        [
          'run',
          '--base-url',
          `http://127.0.0.1:${port}/v1`,
          '--model',
          'm',
          '--data-dir',
          dataDir,
          'task',
        ],
        io,
      ),
    ).toBe(1);
    expect(stderr().trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^tandem run: Tandem could not reach http://127.0.0.1:${port}/v1: connection refused \\(after 4 attempts\\)\\.$`,
      ),
    );
    // The first request failed: the session holds only the task, so it is not offered.
    expect(stderr()).not.toContain('continue it with --session');
  });

  it('without a TTY, a write is refused with a message to the model and to stderr', async () => {
    const log: string[] = [];
    const { server, folder, args } = await setup([
      { toolCalls: [{ name: 'note', arguments: { text: 'x' } }] },
      { text: 'ok, I will not' },
    ]);
    const { io, stderr, stdout } = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    const code = await main([...args, 'write it'], io, { createTools: () => testTools(log) });
    expect(code).toBe(0);
    expect(log).toEqual([]);
    expect(stderr()).toContain(
      'tandem: refused note: it needs approval and stdin is not a terminal; use --mode to allow it',
    );
    const answer = server.chatBodies()[1]?.messages.find((m) => m.role === 'tool');
    expect(answer?.content).toMatch(
      /^Refused: this call needs the person's approval and no one can approve it here \(no terminal\)/,
    );
    expect(stdout()).toBe('ok, I will not\n');
  });

  it.each([
    // `note` names no path, so auto-edit cannot see that it stays inside the folder: it asks.
    {
      mode: 'auto-edit',
      ran: [],
      answer: /^Refused: this call needs the person's approval and no one can approve it here/,
    },
    {
      mode: 'read-only',
      ran: [],
      answer:
        /^Tandem is in read-only mode for this project: only reads run, so note \(write\) was not run/,
    },
    { mode: 'autonomous', ran: ['note:x'], answer: /^noted x$/ },
  ])('--mode $mode', async ({ mode, ran, answer }) => {
    const log: string[] = [];
    const { server, folder, args } = await setup([
      { toolCalls: [{ name: 'note', arguments: { text: 'x' } }] },
      { text: 'ok' },
    ]);
    const { io } = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(
      await main([...args, '--mode', mode, 'go'], io, { createTools: () => testTools(log) }),
    ).toBe(0);
    expect(log).toEqual(ran);
    expect(server.chatBodies()[1]?.messages.find((m) => m.role === 'tool')?.content).toMatch(
      answer,
    );
  });

  it('exits 4 at the step limit', async () => {
    const { folder, args } = await setup([
      { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] },
    ]);
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(
      await main([...args, '--max-steps', '2', 'go'], io, { createTools: () => testTools() }),
    ).toBe(4);
    expect(stderr()).toMatch(/tandem run: Stopped after 2 steps/);
  });

  it('journals a run like the window does, so its writes can be undone', async () => {
    const { server, folder, dataDir, args } = await setup([
      {
        toolCalls: [
          { id: 'call_0', name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } },
        ],
      },
      { text: 'written' },
    ]);
    await writeFile(join(folder, 'a.txt'), 'old\n');
    const { io, stderr } = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(await main([...args, '--mode', 'autonomous', 'write a'], io)).toBe(0);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('new\n');
    const sessionId = /session (\S+) \(continue it/.exec(stderr())?.[1];
    expect(sessionId).toBeTruthy();

    const workspace = await openWorkspaceAgent({
      folder: await realpath(folder),
      dataDir,
      gate: allowAll,
      sessionId: sessionId!,
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
    });
    try {
      expect((await workspace.revertCall('call_0')).ok).toBe(true);
    } finally {
      await workspace.close();
    }
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('old\n');
  });

  it('continues a session with --session', async () => {
    const { server, folder, args } = await setup([
      { text: 'first answer' },
      { text: 'second answer' },
    ]);
    const first = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(await main([...args, 'one'], first.io)).toBe(0);
    const sessionId = /session (\S+) \(continue it/.exec(first.stderr())?.[1];
    expect(sessionId).toBeTruthy();
    const second = memoryIo({ OPENAI_API_KEY: 'k' }, folder);
    expect(await main([...args, '--session', sessionId!, 'two'], second.io)).toBe(0);
    const sent = server.chatBodies()[1]!.messages.slice(1);
    expect(sent).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('asks on a terminal and runs the write when the person types y', async () => {
    const log: string[] = [];
    const { server, folder, args } = await setup([
      { toolCalls: [{ name: 'note', arguments: { text: 'x' } }] },
      { text: 'ok' },
    ]);
    const stdin = new PassThrough();
    const err: string[] = [];
    const io: CliIo = {
      ...memoryIo({ OPENAI_API_KEY: 'k' }, folder).io,
      stdin,
      stdinIsTTY: true,
      stderr: {
        write: (text: string) => {
          err.push(text);
          if (text.includes('[y] allow once')) setImmediate(() => stdin.write('y\n'));
          return true;
        },
      },
    };
    const code = await main([...args, 'go'], io, { createTools: () => testTools(log) });
    expect(err.join('')).not.toContain('tandem run:');
    expect(code).toBe(0);
    expect(log).toEqual(['note:x']);
    expect(err.join('')).toContain('── note needs your approval ──');
    expect(server.chatBodies()[1]?.messages.find((m) => m.role === 'tool')?.content).toBe(
      'noted x',
    );
  });
});
