import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupMembers, isAlive } from './process-check.test-support';
import { runInPty } from './pty-session';
import { ShellSessions } from './shell-sessions';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-pty-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function run(command: string, extra: Partial<Parameters<typeof runInPty>[0]> = {}) {
  const chunks: string[] = [];
  const done = runInPty({
    command,
    folder,
    timeoutMs: 20_000,
    onData: (c) => chunks.push(c),
    ...extra,
  });
  return { chunks, done };
}

async function readPid(name: string): Promise<number> {
  return Number((await readFile(path.join(folder, name), 'utf8')).trim());
}

/** Polls for up to 10 s: generous, so a loaded machine cannot make it give up too early. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe('runInPty', () => {
  it('runs in the folder and returns output and exit code; colours in the raw stream only', async () => {
    const { chunks, done } = run(`pwd; printf '\\033[31mred\\033[0m\\n'; exit 3`);
    const result = await done;
    expect(result.ending).toBe('exited');
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(chunks.join('')).toContain('\u001b[31mred\u001b[0m');
    expect(result.text).toBe(`${folder}\nred\n`);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports the signal that ended the command', async () => {
    const result = await run('kill -TERM $$').done;
    expect(result).toMatchObject({ ending: 'exited', signal: 'SIGTERM', exitCode: null });
  });

  it('resolves carriage-return overwrites in the model text', async () => {
    const result = await run(`printf 'step 1/3\\rstep 3/3\\ndone\\n'`).done;
    expect(result.text).toBe('step 3/3\ndone\n');
  });

  it('keeps the secrets Tandem holds out of the environment', async () => {
    const env = {
      ...process.env,
      TANDEM_API_KEY: 's1',
      OPENAI_API_KEY: 's2',
      MY_TOKEN: 's3',
      KEEP_ME: 'kept',
    };
    const result = await run(
      'echo "[$TANDEM_API_KEY][$OPENAI_API_KEY][$MY_TOKEN][$KEEP_ME][$GIT_PAGER]"',
      { env, secretNames: ['MY_TOKEN'] },
    ).done;
    expect(result.text.trim()).toBe('[][][][kept][cat]');
  });

  it('streams 50 MB without keeping it: the model text stays within budget', async () => {
    let streamed = 0;
    let sawColour = false;
    const result = await runInPty({
      command: `printf '\\033[32mstart\\033[0m\\n'; head -c 50000000 /dev/zero | tr '\\0' a | fold -w 99; echo; echo the-end`,
      folder,
      timeoutMs: 25_000,
      budgetBytes: 16 * 1024,
      onData: (chunk) => {
        streamed += Buffer.byteLength(chunk);
        sawColour ||= chunk.includes('\u001b[32m');
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.totalBytes).toBeGreaterThan(50_000_000);
    expect(streamed).toBe(result.totalBytes);
    expect(sawColour).toBe(true);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(16 * 1024 + 100);
    expect(result.text.startsWith('start\n')).toBe(true);
    expect(result.text.trimEnd().endsWith('the-end')).toBe(true);
  });

  it('kills the whole process group on timeout and says it timed out', async () => {
    const result = await run(
      `echo $$ > leader; (sleep 60; echo never) & setsid sleep 61 & echo $! > escaped; echo started; sleep 62`,
      // Long enough for bash to start everything first on a loaded machine.
      { timeoutMs: 3_000 },
    ).done;
    expect(result.ending).toBe('timed-out');
    expect(result.exitCode).toBeNull();
    expect(result.text).toContain('started');
    const leader = await readPid('leader');
    const escaped = await readPid('escaped');
    await eventually(() => groupMembers(leader).length === 0 && !isAlive(escaped));
    expect(groupMembers(leader)).toEqual([]);
    expect(isAlive(escaped)).toBe(false);
  });

  it('stops on abort and leaves nothing behind', async () => {
    const controller = new AbortController();
    const { done } = run(`echo $$ > stop-leader; sleep 60 & echo ready; sleep 61`, {
      signal: controller.signal,
      onData: (chunk) => {
        if (chunk.includes('ready')) controller.abort();
      },
    });
    const result = await done;
    expect(result.ending).toBe('stopped');
    const leader = await readPid('stop-leader');
    await eventually(() => groupMembers(leader).length === 0);
    expect(groupMembers(leader)).toEqual([]);
  });

  it('kills background jobs when the command itself exits', async () => {
    const result = await run(`sleep 60 & echo $! > bg`).done;
    expect(result.exitCode).toBe(0);
    const bg = await readPid('bg');
    await eventually(() => !isAlive(bg));
    expect(isAlive(bg)).toBe(false);
  });

  it('notes that a quiet command may be waiting for input', async () => {
    const quietMs = 300;
    const controller = new AbortController();
    let seen = '';
    // Stopped twice the quiet time after the whole prompt arrived, counted from the prompt, so
    // a slow start cannot shorten the silence; the generous timeout is only a backstop.
    const result = await run(`printf 'Continue? [y/N] '; read answer`, {
      quietMs,
      signal: controller.signal,
      onData: (chunk) => {
        seen += chunk;
        if (seen.includes('Continue? [y/N] '))
          setTimeout(() => controller.abort(), 2 * quietMs).unref();
      },
    }).done;
    expect(result.ending).toBe('stopped');
    expect(result.mayBeWaitingForInput).toBe(true);
    expect(result.text).toContain('Continue? [y/N]');
  });

  it('does not note waiting for input when the command was talking until the end', async () => {
    const controller = new AbortController();
    const result = await run(`while :; do echo tick; sleep 0.05; done`, {
      quietMs: 5_000,
      onData: (chunk) => {
        if (chunk.includes('tick')) controller.abort();
      },
      signal: controller.signal,
    }).done;
    expect(result.ending).toBe('stopped');
    expect(result.mayBeWaitingForInput).toBe(false);
  });

  it('lets the person type into that command only, through the registry', async () => {
    const sessions = new ShellSessions();
    const other = run('sleep 60', { sessions, callId: 'other', timeoutMs: 10_000 });
    const result = await runInPty({
      command: `printf 'name? '; read name; echo "hello $name"`,
      folder,
      timeoutMs: 10_000,
      sessions,
      callId: 'call-1',
      onData: (chunk) => {
        if (chunk.includes('name?')) expect(sessions.write('call-1', 'tandem\r')).toBe(true);
      },
    });
    expect(result.text).toContain('hello tandem');
    expect(sessions.has('call-1')).toBe(false);
    expect(sessions.write('call-1', 'late')).toBe(false);
    expect(sessions.write('nobody', 'x')).toBe(false);
    // Ctrl-C typed into the other call's terminal interrupts only that one.
    expect(sessions.write('other', '\u0003')).toBe(true);
    const interrupted = await other.done;
    expect(interrupted).toMatchObject({ ending: 'exited', signal: 'SIGINT' });
    expect(sessions.size).toBe(0);
  });

  it('does not start when already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('echo never > started', { signal: controller.signal }).done;
    expect(result.ending).toBe('stopped');
    await expect(readFile(path.join(folder, 'started'))).rejects.toThrow();
  });
});
