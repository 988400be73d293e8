// Real MCP servers for tests, all from node_modules or tiny fixture scripts (no network): the
// reference "everything" and "filesystem" servers, and our fixtures for failures and edge cases.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { McpServerSpec } from '../main/mcp/mcp-config';
import type { ToolContext } from '../main/tools/tool';

const ROOT = resolve(__dirname, '../..');
const PACKAGES = join(ROOT, 'node_modules', '@modelcontextprotocol');
const FIXTURES = join(ROOT, 'src', 'main', 'mcp', 'test-fixtures');

export const EVERYTHING_ENTRY = join(PACKAGES, 'server-everything', 'dist', 'index.js');
export const FILESYSTEM_ENTRY = join(PACKAGES, 'server-filesystem', 'dist', 'index.js');

export type FixtureName = 'crash-on-start' | 'never-answers' | 'stderr-flood' | 'probe-server';

/** A stdio spec running `node <script> <args>`, with `node` found on the PATH as people write it. */
export function nodeServer(
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Extract<McpServerSpec, { kind: 'stdio' }> {
  return { kind: 'stdio', command: 'node', args: [script, ...args], env, cwd: null };
}

export function everythingStdio(): Extract<McpServerSpec, { kind: 'stdio' }> {
  return nodeServer(EVERYTHING_ENTRY, ['stdio']);
}

export function fixture(name: FixtureName): Extract<McpServerSpec, { kind: 'stdio' }> {
  return nodeServer(join(FIXTURES, `${name}.mjs`));
}

export interface HttpEverything {
  readonly url: string;
  close(): Promise<void>;
}

/** server-everything in its Streamable HTTP ("/mcp") or SSE ("/sse") mode on a free port. */
export async function startHttpEverything(mode: 'streamableHttp' | 'sse'): Promise<HttpEverything> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(child, /(listening|running) on port/i);
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => stopChild(child),
  };
}

function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolvePromise();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
    server.once('error', reject);
  });
}

/** A tool context as the runner makes one; output chunks are collected. */
export function toolContext(
  folder: string,
  signal: AbortSignal = new AbortController().signal,
): ToolContext & { readonly output: string[] } {
  const output: string[] = [];
  return {
    folder,
    sessionId: 'session',
    callId: `call-${Math.random().toString(36).slice(2)}`,
    signal,
    onOutput: (chunk) => output.push(chunk),
    services: {},
    output,
  };
}

/** Polls `check` every 20 ms until it is true (or `limitMs` passes, which fails the test). */
export async function eventually(
  check: () => boolean,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > limitMs) throw new Error(`still waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
