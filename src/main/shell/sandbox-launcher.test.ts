import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInPty } from './pty-session';
import { bwrapArgv, sandboxExecProfile } from './sandbox-launcher';
import type { SandboxPlan } from './sandbox-launcher';
import { probeSandbox } from './sandbox-probe';
import { ShellSessions } from './shell-sessions';

const state = await probeSandbox();

let folder: string; // under /tmp: the private /tmp must not hide it
let home: string; // a fake home outside /tmp, so hiding it is the home rule's doing
let outside: string;
let hostTmpMarker: string;
let server: http.Server;
let port: number;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-sbx-project-'));
  await mkdir(path.join(folder, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(folder, '.git', 'config'), '[core]\n');
  home = await mkdtemp('/var/tmp/tandem-sbx-home-');
  await writeFile(path.join(home, 'secret.txt'), 'TOP-SECRET-VALUE');
  outside = await mkdtemp('/var/tmp/tandem-sbx-outside-');
  hostTmpMarker = await mkdtemp(path.join(os.tmpdir(), 'tandem-host-marker-'));
  server = http.createServer((_req, res) => res.end('hello-from-host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.close();
  for (const dir of [folder, home, outside, hostTmpMarker])
    await rm(dir, { recursive: true, force: true });
});

function sandboxed(
  command: string,
  allowNetwork = false,
  extra: Partial<Parameters<typeof runInPty>[0]> = {},
) {
  const plan: SandboxPlan = { folder, home, allowNetwork };
  return runInPty({
    command,
    folder,
    timeoutMs: 15_000,
    env: { ...process.env, HOME: home },
    wrap: (argv) => bwrapArgv(plan, argv),
    ...extra,
  });
}

describe('bwrapArgv', () => {
  it('builds the mounts in an order where later binds win', () => {
    const argv = bwrapArgv({ folder: '/tmp/p', home: '/home/me', allowNetwork: false }, [
      '/bin/bash',
      '-c',
      'ls',
    ]);
    const joined = argv.join(' ');
    expect(joined).toMatch(
      /^bwrap --ro-bind \/ \/ --dev \/dev --proc \/proc --tmpfs \/tmp --tmpfs \/home\/me --bind \/tmp\/p \/tmp\/p /,
    );
    expect(argv).toContain('--unshare-net');
    expect(argv).toContain('--unshare-pid');
    expect(argv).toContain('--die-with-parent');
    expect(argv).not.toContain('--new-session');
    expect(argv.slice(-5)).toEqual(['/tmp/p', '--', '/bin/bash', '-c', 'ls']);
    expect(
      bwrapArgv({ folder: '/tmp/p', home: '/home/me', allowNetwork: true }, ['x']),
    ).not.toContain('--unshare-net');
  });

  it('does not hide a home folder that is the project, and re-binds a project inside home', () => {
    expect(
      bwrapArgv({ folder: '/home/me', home: '/home/me', allowNetwork: false }, ['x']),
    ).not.toContain('/home/me/');
    const argv = bwrapArgv({ folder: '/home/me/proj', home: '/home/me', allowNetwork: false }, [
      'x',
    ]).join(' ');
    expect(argv).toContain('--tmpfs /home/me --bind /home/me/proj /home/me/proj');
  });
});

describe.runIf(state.kind === 'bwrap')('commands in bubblewrap', () => {
  it('can write the project folder but nothing outside it', async () => {
    const result = await sandboxed(
      `echo inside > made.txt; cat made.txt; echo x > ${outside}/escape.txt; touch /usr/escape`,
    );
    expect(result.text).toContain('inside');
    expect(await readFile(path.join(folder, 'made.txt'), 'utf8')).toBe('inside\n');
    await expect(readFile(path.join(outside, 'escape.txt'))).rejects.toThrow();
    expect(result.text).toMatch(/escape\.txt: Read-only file system/);
  });

  it('has a private /tmp', async () => {
    const result = await sandboxed(`ls /tmp; echo private > /tmp/inner-${path.basename(folder)}`);
    expect(result.text).not.toContain(path.basename(hostTmpMarker));
    await expect(
      readFile(path.join(os.tmpdir(), `inner-${path.basename(folder)}`)),
    ).rejects.toThrow();
  });

  it('hides the home folder', async () => {
    const result = await sandboxed('cat "$HOME/secret.txt"; ls -A "$HOME" | wc -l');
    expect(result.text).not.toContain('TOP-SECRET-VALUE');
    expect(result.text).toContain('No such file or directory');
  });

  it('keeps .git/hooks and .git/config read-only', async () => {
    const result = await sandboxed(
      'echo "rm -rf ~" > .git/hooks/pre-commit; echo "[alias]" >> .git/config; echo ok > .git/other',
    );
    await expect(readFile(path.join(folder, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    expect(await readFile(path.join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(await readFile(path.join(folder, '.git', 'other'), 'utf8')).toBe('ok\n');
    expect(result.text).toContain('Read-only file system');
  });

  it('does not let .git be renamed away and replaced by a copy with writable hooks', async () => {
    const result = await sandboxed(
      'mv .git .git-moved || echo MOVE-REFUSED; rm -rf .git || echo REMOVE-REFUSED',
    );
    expect(result.text).toContain('MOVE-REFUSED');
    expect(result.text).toContain('REMOVE-REFUSED');
    expect(await readFile(path.join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    await expect(readFile(path.join(folder, '.git-moved', 'config'))).rejects.toThrow();
  });

  const fetchLocal = () =>
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 || echo CONNECT-FAILED`;

  it('cuts the network unless allowed', async () => {
    const cut = await sandboxed(fetchLocal(), false);
    expect(cut.text).toContain('CONNECT-FAILED');
    expect(cut.text).not.toContain('hello-from-host');
    const allowed = await sandboxed(fetchLocal(), true);
    expect(allowed.text).toContain('hello-from-host');
  });

  it('runs in its own pid namespace', async () => {
    const result = await sandboxed('ps -e -o pid= | wc -l');
    expect(Number(result.text.trim())).toBeLessThan(5);
  });

  it('leaves no process behind on timeout, and Ctrl-C from the person still works', async () => {
    const marker = 987_000 + (process.pid % 1000);
    const result = await sandboxed(`sleep ${marker} & echo started; sleep ${marker + 1}`, false, {
      timeoutMs: 1_000,
    });
    expect(result.ending).toBe('timed-out');
    const survivors = () =>
      readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((pid) => {
          try {
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
            return (
              readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`sleep\u0000${marker}`) &&
              !/\) Z /.test(stat)
            );
          } catch {
            return false;
          }
        });
    for (let i = 0; i < 50 && survivors().length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(survivors()).toEqual([]);

    const sessions = new ShellSessions();
    const interrupted = await sandboxed('echo ready; sleep 30', false, {
      sessions,
      callId: 'c',
      onData: (chunk) => {
        if (chunk.includes('ready')) sessions.write('c', '\u0003');
      },
    });
    expect(interrupted.ending).toBe('exited');
  });
});

describe('sandboxExecProfile', () => {
  const profile = sandboxExecProfile({
    folder: '/Users/me/proj',
    home: '/Users/me',
    allowNetwork: false,
    tmpDir: '/private/var/folders/x/T/tandem-cmd-1',
  });

  it('allows writes only to the project and its temp folder', () => {
    expect(profile).toContain('(deny file-write*)');
    expect(profile).toContain(
      '(allow file-write* (subpath "/Users/me/proj") (subpath "/private/var/folders/x/T/tandem-cmd-1")',
    );
  });

  it('keeps git hooks and config read-only, hides home, cuts network', () => {
    expect(profile).toContain(
      '(deny file-write* (subpath "/Users/me/proj/.git/hooks") (literal "/Users/me/proj/.git/config"))',
    );
    expect(profile).toContain('(deny file-read* (subpath "/Users/me"))');
    expect(profile).toContain('(allow file-read* (subpath "/Users/me/proj")');
    expect(profile).toContain('(deny network*)');
    // Later rules win in SBPL: the project re-allow must follow the home deny.
    expect(profile.indexOf('(allow file-read* (subpath "/Users/me/proj")')).toBeGreaterThan(
      profile.indexOf('(deny file-read*'),
    );
  });

  it('leaves the network on when allowed and quotes paths safely', () => {
    const open = sandboxExecProfile({
      folder: '/p/a "b"',
      home: '/h',
      allowNetwork: true,
      tmpDir: '/t',
    });
    expect(open).not.toContain('network*');
    expect(open).toContain('(subpath "/p/a \\"b\\"")');
  });
});
