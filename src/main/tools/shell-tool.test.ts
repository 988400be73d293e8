import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../shared/tool-types';
import { classifyCommand } from '../shell/command-classifier';
import { probeSandbox } from '../shell/sandbox-probe';
import { ShellSessions } from '../shell/shell-sessions';
import { commandWithNetworkTaint } from './outside-content';
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
    if (sandbox.available)
      expect(preview.sandbox.description).toContain(
        'project read-write, .git read-only (no git command), network off',
      );
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
    const capped = createShellTool({ maxTimeoutSeconds: 2 });
    const result = await execute(
      capped,
      { command: 'echo waiting; sleep 30', timeout_seconds: 500 },
      context(),
    );
    expect(result.output).toContain('waiting');
    expect(result.output).toContain('timed out after 2 s');
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
      // node is on the system paths the sandbox shows; curl may not be installed.
      const command = `node -e "fetch('http://127.0.0.1:${port}/').then((r) => r.text()).then(console.log, () => console.log('NO-NETWORK'))"`;
      const cut = await execute(tool, { command }, context());
      expect(cut.output).toContain('NO-NETWORK');
      expect(cut.output).not.toContain('reached-host');
      expect(cut.output).toContain('network off');
      const allowed = await execute(
        tool,
        { command },
        context({ services: { allowShellNetwork: true } }),
      );
      expect(allowed.output).toContain('reached-host');
      expect(allowed.output).toContain('network allowed');
      // What it printed may come from anywhere: the session is to count as tainted.
      expect(cut.outsideContent).toBeUndefined();
      expect(allowed.outsideContent).toBe(commandWithNetworkTaint(command));
      expect(allowed.outsideContent).toMatch(
        /^after running `node -e "fetch\(.*…` with network on$/,
      );
    },
  );

  it('gives a read-only command no network even where the project allows it, so it taints nothing', async () => {
    await writeFile(path.join(folder, 'plain.txt'), 'plain\n');
    const result = await execute(
      tool,
      { command: 'cat plain.txt' },
      context({ services: { allowShellNetwork: true } }),
    );
    expect(result.output).toContain('plain');
    expect(result.output).toContain('network off');
    expect(result.outsideContent).toBeUndefined();
  });

  it.runIf(sandbox.kind === 'bwrap')(
    'runs a read-only command with the project read-only, and others with it writable',
    async () => {
      const safe = await execute(tool, { command: 'test -w .' }, context());
      expect(safe.output).toContain('exit code 1');
      expect(safe.output).toContain('project read-only, clean environment (read-only command)');
      const approved = await execute(tool, { command: 'test -w . && touch rw-probe' }, context());
      expect(approved.output).toContain('exit code 0');
      expect(approved.output).toContain('project read-write');
      expect(existsSync(path.join(folder, 'rw-probe'))).toBe(true);
    },
  );

  const none: SandboxState = {
    kind: 'none',
    available: false,
    description: 'Not sandboxed: no sandbox on plan9.',
  };

  it.each([
    ['in the sandbox', undefined],
    ['without a sandbox', async () => none],
  ])('does not let an embedded bare repository run its fsmonitor (%s)', async (_, probe) => {
    const evil = path.join(folder, 'evil');
    const marker = path.join(folder, 'fsmonitor-ran');
    execFileSync('git', ['init', '-q', '--bare', evil]);
    for (const [key, value] of [
      ['core.bare', 'false'],
      ['core.worktree', '..'],
      ['core.fsmonitor', `echo HIJACKED >&2; touch ${marker}; false`],
    ] as const)
      execFileSync('git', ['-C', evil, 'config', key, value]);
    // Without the settings, git runs it (checked here so the test cannot pass vacuously).
    execFileSync('git', ['-C', evil, 'status'], { stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    try {
      const shell = createShellTool({ probe, home: '/var/tmp/tandem-no-such-home' });
      const result = await execute(shell, { command: 'git -C evil status' }, context());
      expect(result.output).not.toContain('HIJACKED');
      expect(result.output).toContain('cannot use bare repository');
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(evil, { recursive: true, force: true });
    }
  });

  it.each([
    ['in the sandbox', undefined],
    ['without a sandbox', async () => none],
  ])(
    "runs no diff program from a repository's config for a read-only command (%s)",
    async (_, probe) => {
      const repo = await mkdtemp(path.join(os.tmpdir(), 'tandem-shell-extdiff-'));
      const marker = path.join(repo, 'ext-diff-ran');
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
          encoding: 'utf8',
          env: { ...process.env, GIT_PAGER: 'cat' },
        });
      try {
        await writeFile(path.join(repo, 'f.txt'), 'old\n');
        const script = path.join(repo, 'ext.sh');
        await writeFile(script, `#!/bin/sh\necho EXT-DIFF-RAN\ntouch ${marker}\n`);
        await chmod(script, 0o755);
        git('init', '-q');
        git('add', 'f.txt');
        git('commit', '-qm', 'first');
        await writeFile(path.join(repo, 'f.txt'), 'new\n');
        // Set in the worktree config, which .git/config switches on: the classifier's own check
        // of .git/config does not see it, so the environment is what keeps it from running.
        git('config', 'extensions.worktreeConfig', 'true');
        git('config', '--worktree', 'diff.external', script);
        // Without the settings, git runs it (so the test cannot pass vacuously).
        expect(git('diff')).toContain('EXT-DIFF-RAN');
        await rm(marker);

        const shell = createShellTool({ probe, home: '/var/tmp/tandem-no-such-home' });
        const ctx = context({ folder: repo });
        const readOnly = await execute(shell, { command: 'git diff' }, ctx);
        // Should the classifier come to ask for this repository, the person decides instead.
        if ((await classifyCommand('git diff', repo)).safe) {
          if (!probe && sandbox.available) expect(readOnly.output).toContain('project read-only');
          expect(readOnly.output).not.toContain('EXT-DIFF-RAN');
          expect(readOnly.output).toContain('Tandem did not run the diff program');
          expect(existsSync(marker)).toBe(false);
        }
        // A read-only command still gets a plain diff when it asks for one.
        const plain = await execute(shell, { command: 'git diff --no-ext-diff' }, ctx);
        expect(plain.output).toContain('+new');

        // A command the person approved keeps git as configured.
        const approved = await execute(shell, { command: 'git diff; touch done' }, ctx);
        expect(approved.output).toContain('EXT-DIFF-RAN');
      } finally {
        await rm(repo, { recursive: true, force: true });
      }
    },
  );

  it('gives only read-only commands the strict git settings', async () => {
    const shell = createShellTool({ probe: async () => none });
    const show = 'git config --get protocol.allow; git config --get core.hooksPath';
    const readOnly = await execute(shell, { command: show }, context());
    expect(readOnly.output).toContain('never\n/dev/null');
    const approved = await execute(shell, { command: `${show}; touch x` }, context());
    expect(approved.output).not.toContain('never');
    expect(approved.output).not.toContain('/dev/null');
  });

  it("passes git settings after the person's own for an approved command, and none of theirs to a read-only one", async () => {
    const shell = createShellTool({
      probe: async () => none,
      env: {
        ...process.env,
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'user.name',
        GIT_CONFIG_VALUE_0: 'Person Name',
        BASH_ENV: '/nonexistent-bash-env',
        SECRET_TOKEN: 'do-not-leak',
      },
    });
    const command = 'git config --get user.name; git config --get safe.bareRepository';
    const approved = await execute(shell, { command }, context({ permit: { basis: 'person' } }));
    expect(approved.output).toContain('Person Name\nexplicit');
    // Run without asking: the clean environment keeps nothing the person's shell exported.
    const readOnly = await execute(shell, { command }, context());
    expect(readOnly.output).not.toContain('Person Name');
    expect(readOnly.output).toContain('explicit');
    expect(readOnly.output).not.toContain('nonexistent-bash-env');
  });

  it('runs a read-only command from its judged words, never from its text', async () => {
    await writeFile(path.join(folder, 'judged.txt'), 'judged\n');
    const shell = createShellTool({ probe: async () => none });
    // The gate's verdict says what runs: a text that differs from its command is classified anew.
    const verdict = await classifyCommand('cat judged.txt', folder);
    expect(verdict.canonical).toBe("'cat' 'judged.txt'");
    const result = await execute(
      shell,
      { command: 'cat judged.txt' },
      context({ permit: { basis: 'read-only', command: verdict } }),
    );
    expect(result.output).toContain('judged');
    // Allowed as read-only, but the verdict for this text is not read-only: it does not run.
    await expect(
      shell.execute(
        { command: 'touch made-by-mismatch' } as never,
        context({ permit: { basis: 'read-only', command: verdict } }),
      ),
    ).rejects.toThrow('not judged read-only now');
    expect(existsSync(path.join(folder, 'made-by-mismatch'))).toBe(false);
  });

  it('says plainly when there is no sandbox', async () => {
    const plain = createShellTool({ probe: async () => none });
    const result = await execute(plain, { command: 'echo $$ >/dev/null; echo fine' }, context());
    expect(result.output).toContain('fine');
    expect(result.output).toContain('no sandbox: Not sandboxed: no sandbox on plan9.');
    expect(result.isError).toBe(false);
  });
});
