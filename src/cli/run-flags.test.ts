import { Readable } from 'node:stream';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../test-support/scripted-openai-server';
import type { CliIo } from './cli-io';
import { main } from './index';
import { parseRunFlags, runTimeouts, type RunFlags } from './run-flags';

function memoryIo(cwd = '/') {
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: { write: (text: string) => err.push(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env: { OPENAI_API_KEY: 'k' },
    cwd,
  };
  return { io, stderr: () => err.join('') };
}

const base = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'];

describe('--max-steps takes plain positive whole numbers only', () => {
  it.each(['-1', '0', '0x10', '1e3', ' 5 ', '+5', '5.0', '', 'five', '100001', '9'.repeat(30)])(
    '"%s" → exit 2 naming the flag',
    async (value) => {
      const { io, stderr } = memoryIo();
      expect(await main(['run', ...base, '--max-steps', value, 'task'], io)).toBe(2);
      expect(stderr().split('\n')[0]).toBe(
        `tandem run: --max-steps must be a whole number from 1 to 100,000, written with digits only (got "${value}")`,
      );
    },
  );

  it.each([
    ['1', 1],
    ['50', 50],
    ['100000', 100_000],
  ])('"%s" is %i', (value, steps) => {
    const flags = parseRunFlags([...base, '--max-steps', value, 'task'], memoryIo().io);
    expect(flags !== 'help' && flags.maxSteps).toBe(steps);
  });
});

function parsed(argv: readonly string[]): RunFlags {
  const flags = parseRunFlags(argv, memoryIo().io);
  if (flags === 'help') throw new Error('help');
  return flags;
}

describe('timeouts', () => {
  it('default to 60 s, 120 s and 20 min', () => {
    expect(runTimeouts(parsed([...base, 'task']))).toEqual({
      connectMs: 60_000,
      idleMs: 120_000,
      requestMs: 1_200_000,
    });
  });

  it('are set in seconds by flags', () => {
    const argv = [...base, '--connect-timeout', '5', '--idle-timeout', '300'];
    const flags = parsed([...argv, '--request-timeout', '3600', 'task']);
    expect(runTimeouts(flags)).toEqual({
      connectMs: 5_000,
      idleMs: 300_000,
      requestMs: 3_600_000,
    });
  });

  it("fall back to the window's stored settings field by field, a flag winning", () => {
    const stored = { connectSeconds: 200, idleSeconds: 30, requestSeconds: 90 };
    expect(runTimeouts(parsed(['--idle-timeout', '7', 'task']), stored)).toEqual({
      connectMs: 200_000,
      idleMs: 7_000,
      requestMs: 90_000,
    });
  });

  it.each([
    ['--idle-timeout', '-5', 'from 1 to 300'],
    ['--idle-timeout', '301', 'from 1 to 300'],
    ['--connect-timeout', '1.5', 'from 1 to 300'],
    ['--request-timeout', '0', 'from 1 to 86,400'],
  ])('%s %s → exit 2', async (flag, value, range) => {
    const { io, stderr } = memoryIo();
    expect(await main(['run', ...base, flag, value, 'task'], io)).toBe(2);
    expect(stderr().split('\n')[0]).toBe(
      `tandem run: ${flag} (seconds) must be a whole number ${range}, written with digits only (got "${value}")`,
    );
  });
});

describe('--base-url', () => {
  it.each([
    'http://',
    'http://exa mple.com/v1',
    'http://[::1/v1',
    'ftp://host/v1',
    'localhost:1234',
  ])('a malformed URL "%s" → exit 2', async (url) => {
    const { io, stderr } = memoryIo();
    expect(await main(['run', '--base-url', url, '--model', 'm', 'task'], io)).toBe(2);
    expect(stderr().split('\n')[0]).toBe(
      `tandem run: --base-url must be an http:// or https:// URL with a host, e.g. https://api.openai.com/v1 (got "${url}")`,
    );
  });
});

describe('names that must not be empty', () => {
  it.each([
    ['--model', '--model must not be empty'],
    ['--api-key-env', '--api-key-env must name an environment variable'],
  ])('%s "" → exit 2', async (flag, message) => {
    const { io, stderr } = memoryIo();
    expect(await main(['run', flag, '', 'task'], io)).toBe(2);
    expect(stderr().split('\n')[0]).toBe(`tandem run: ${message}`);
  });
});

describe('--folder', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('a folder that is a file says so (exit 3)', async () => {
    const dir = await makeTempDir('flags');
    dirs.push(dir);
    const file = join(dir, 'notes.txt');
    await writeFile(file, 'x');
    const { io, stderr } = memoryIo(dir);
    expect(await main(['run', ...base, '--folder', file, 'task'], io)).toBe(3);
    expect(stderr()).toBe(
      `tandem run: not a folder: ${file} is a file; give the folder it is in\n`,
    );
  });
});

describe('the timeout flags reach the provider', () => {
  let server: ScriptedServer | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('a provider that never answers ends the run with the connect timeout named (exit 1)', async () => {
    server = await startScriptedOpenAIServer({ turns: () => ({ quiet: 'silent' }) });
    const folder = await makeTempDir('flags-proj');
    const dataDir = await makeTempDir('flags-data');
    dirs.push(folder, dataDir);
    const { io, stderr } = memoryIo(folder);
    const env = { ...io.env, TANDEM_RETRY_BASE_MS: '1' };
    const argv = ['run', '--base-url', server.baseUrl, '--model', 'm', '--data-dir', dataDir];
    expect(await main([...argv, '--connect-timeout', '1', 'task'], { ...io, env })).toBe(1);
    expect(stderr().trim().split('\n').at(-1)).toBe(
      'tandem run: The provider did not start answering within 1 s (the connect timeout; change it in Settings or with --connect-timeout) (after 4 attempts).',
    );
  });
});

describe('MCP flags', () => {
  it('are read as repeatable names beside --mcp-config', () => {
    const flags = parsed([
      '--mcp-config',
      'servers.json',
      '--mcp-trust',
      'db',
      '--mcp-trust',
      'docs',
      '--mcp-write',
      'db',
      'task',
    ]);
    expect(flags.mcp).toEqual({
      'mcp-config': 'servers.json',
      'mcp-trust': ['db', 'docs'],
      'mcp-write': ['db'],
      'mcp-network': undefined,
    });
  });

  it.each([
    [['--mcp-trust', 'db'], '--mcp-trust, --mcp-write and --mcp-network need --mcp-config'],
    [['--mcp-network', 'web'], '--mcp-trust, --mcp-write and --mcp-network need --mcp-config'],
    [['--mcp-config', ''], '--mcp-config must name a file'],
  ])('%j → exit 2 before anything is opened', async (flags, message) => {
    const { io, stderr } = memoryIo();
    // The base URL points at a closed port: reaching the provider would fail differently.
    expect(await main(['run', ...base, ...flags, 'task'], io)).toBe(2);
    expect(stderr().split('\n')[0]).toBe(`tandem run: ${message}`);
  });
});
