import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../shared/tool-types';
import { probeSandbox } from '../shell/sandbox-probe';
import { ShellSessions } from '../shell/shell-sessions';
import { createShellTool } from './shell-tool';
import type { ToolContext, ToolReturn } from './tool';

let folder: string;
let server: http.Server;
let port: number;
const sandbox = await probeSandbox();

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-shell-tool-'));
  server = http.createServer((_req, res) => res.end('reached-host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await rm(folder, { recursive: true, force: true });
});

function context(overrides: Partial<ToolContext> = {}): ToolContext & { chunks: string[] } {
  const chunks: string[] = [];
  return {
    folder,
    sessionId: 's',
    callId: `call-${Math.random()}`,
    signal: new AbortController().signal,
    onOutput: (chunk) => chunks.push(chunk),
    services: {},
    chunks,
    ...overrides,
  };
}

async function execute(
  tool: ReturnType<typeof createShellTool>,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolReturn> {
  const result = await tool.execute(args as never, ctx);
  return typeof result === 'string' ? { output: result } : result;
}

describe('shell tool', () => {
  const tool = createShellTool({
    sessions: new ShellSessions(),
    home: '/var/tmp/tandem-no-such-home',
  });

  it('declares an exec tool whose target is the command', () => {
    expect(tool.name).toBe('shell');
    expect(tool.effect).toBe('exec');
    expect(tool.target?.({ command: 'ls -la' } as never, context())).toEqual({
      kind: 'command',
      command: 'ls -la',
    });
  });

  it('previews the command with its parsed parts, folder and sandbox state', async () => {
    const preview = await tool.preview?.({ command: 'ls | grep x && rm y' } as never, context());
    expect(preview?.kind).toBe('command');
    if (preview?.kind !== 'command') return;
    expect(preview.cwd).toBe(folder);
    expect(preview.parts.map((p) => [p.argv, p.safe])).toEqual([
      [['ls'], true],
      [['grep', 'x'], true],
      [['rm', 'y'], false],
    ]);
    expect(preview.sandbox.kind).toBe(sandbox.kind);
    if (sandbox.available) expect(preview.sandbox.description).toContain('network off');
  });

  it('runs the command, streams raw output and returns clean text with exit code and sandbox line', async () => {
    const ctx = context();
    const result = await execute(
      tool,
      { command: `printf '\\033[1mbold\\033[0m\\n'; echo made > out.txt; exit 2` },
      ctx,
    );
    expect(ctx.chunks.join('')).toContain('\u001b[1mbold');
    expect(result.output).toContain('bold');
    expect(result.output).not.toContain('\u001b');
    expect(result.output).toContain('exit code 2');
    expect(result.output).toContain(sandbox.description);
    expect(result.isError).toBe(true);
    expect(await readFile(path.join(folder, 'out.txt'), 'utf8')).toBe('made\n');
  });

  it('caps the time limit and reports a timeout', async () => {
    const capped = createShellTool({ maxTimeoutSeconds: 1 });
    const result = await execute(
      capped,
      { command: 'echo waiting; sleep 30', timeout_seconds: 500 },
      context(),
    );
    expect(result.output).toContain('waiting');
    expect(result.output).toContain('timed out after 1 s');
    expect(result.isError).toBe(true);
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    const ctx = context({
      signal: controller.signal,
      onOutput: (chunk) => {
        if (chunk.includes('ready')) controller.abort();
      },
    });
    const result = await execute(tool, { command: 'echo ready; sleep 30' }, ctx);
    expect(result.output).toContain('stopped');
  });

  it.runIf(sandbox.kind === 'bwrap')(
    'lets the network through only when the project allows it',
    async () => {
      const command = `curl -s --max-time 3 http://127.0.0.1:${port}/ || echo NO-NETWORK`;
      const cut = await execute(tool, { command }, context());
      expect(cut.output).toContain('NO-NETWORK');
      expect(cut.output).toContain('network off');
      const allowed = await execute(
        tool,
        { command },
        context({ services: { allowShellNetwork: true } }),
      );
      expect(allowed.output).toContain('reached-host');
      expect(allowed.output).toContain('network allowed');
    },
  );

  it('says plainly when there is no sandbox', async () => {
    const none: SandboxState = {
      kind: 'none',
      available: false,
      description: 'Not sandboxed: no sandbox on plan9.',
    };
    const plain = createShellTool({ probe: async () => none });
    const result = await execute(plain, { command: 'echo $$ >/dev/null; echo fine' }, context());
    expect(result.output).toContain('fine');
    expect(result.output).toContain('no sandbox: Not sandboxed: no sandbox on plan9.');
    expect(result.isError).toBe(false);
  });
});
