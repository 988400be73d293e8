import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapArgv, sandboxExecProfile } from './sandbox-launcher';
import {
  GIT,
  NO_GIT,
  READ_ONLY,
  readIn as read,
  SandboxFixture,
} from './sandbox-fixture.test-support';
import { probeSandbox } from './sandbox-probe';
import { ShellSessions } from './shell-sessions';

const state = await probeSandbox();
const fx = new SandboxFixture();
const { sandboxed } = fx;

let folder: string;
let outside: string;
let hostTmpMarker: string;
let server: http.Server;
let port: number;

beforeAll(async () => {
  await fx.setUp();
  folder = fx.folder;
  outside = await fx.temp('/var/tmp/tandem-sbx-outside-');
  hostTmpMarker = await fx.temp(path.join(os.tmpdir(), 'tandem-host-marker-'));
  server = http.createServer((_req, res) => res.end('hello-from-host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.close();
  await fx.tearDown();
});

describe('bwrapArgv', () => {
  it('builds the mounts in an order where later binds win', () => {
    const argv = bwrapArgv(
      { folder: '/tmp/p', home: '/home/me', allowNetwork: false, access: GIT },
      ['/bin/bash', '--norc', '--noprofile', '-c', 'ls'],
      [],
    );
    const joined = argv.join(' ');
    expect(joined).toMatch(
      /^bwrap --ro-bind \/ \/ --dev \/dev --proc \/proc --tmpfs \/tmp --tmpfs \/home\/me --bind \/tmp\/p \/tmp\/p /,
    );
    expect(argv).toContain('--unshare-net');
    expect(argv).toContain('--unshare-pid');
    expect(argv).toContain('--die-with-parent');
    expect(argv.join(' ')).toContain('--cap-drop ALL --unshare-uts --unshare-ipc');
    expect(argv).toContain('--unshare-user-try');
    expect(argv).not.toContain('--new-session');
    expect(argv.slice(-8)).toEqual([
      '--chdir',
      '/tmp/p',
      '--',
      '/bin/bash',
      '--norc',
      '--noprofile',
      '-c',
      'ls',
    ]);
    expect(
      bwrapArgv({ folder: '/tmp/p', home: '/home/me', allowNetwork: true, access: GIT }, ['x'], []),
    ).not.toContain('--unshare-net');
  });

  it('does not hide a home folder that is the project, and re-binds a project inside home', () => {
    expect(
      bwrapArgv(
        { folder: '/home/me', home: '/home/me', allowNetwork: false, access: GIT },
        ['x'],
        [],
      ),
    ).not.toContain('/home/me/');
    const argv = bwrapArgv(
      { folder: '/home/me/proj', home: '/home/me', allowNetwork: false, access: GIT },
      ['x'],
      [],
    ).join(' ');
    expect(argv).toContain('--tmpfs /home/me --bind /home/me/proj /home/me/proj');
  });

  it('empties /run for a plan that hides host sockets, whatever its access (an MCP server)', () => {
    const plan = { folder: '/p', home: '', allowNetwork: true, access: NO_GIT };
    expect(bwrapArgv(plan, ['x'], []).join(' ')).not.toContain('--tmpfs /run');
    const hidden = bwrapArgv({ ...plan, hostSockets: 'hidden' }, ['x'], []).join(' ');
    expect(hidden).toContain('--tmpfs /run --bind /p /p');
    expect(sandboxExecProfile({ ...plan, hostSockets: 'hidden', tmpDir: '/t' }, [])).toContain(
      '(deny network-outbound (remote unix-socket))',
    );
  });

  const entries = [
    { path: '/p/.git', kind: 'folder' },
    { path: '/p/sub/.git', kind: 'file' },
  ] as const;
  it.each([
    // A command no one approved also gets an empty /run: no host sockets.
    [READ_ONLY, '--tmpfs /run --ro-bind /p /p --unshare-net'],
    [
      NO_GIT,
      '--bind /p /p --ro-bind /p/.git /p/.git --ro-bind /p/sub/.git /p/sub/.git --unshare-net',
    ],
    // The protected entries are bound only where they exist, which /p/.git/* do not.
    [GIT, '--bind /p /p --bind /p/.git /p/.git --ro-bind /p/sub/.git /p/sub/.git --unshare-net'],
  ])('binds the project and its git entries for %o', (access, mounts) => {
    const argv = bwrapArgv({ folder: '/p', home: '', allowNetwork: false, access }, ['x'], entries);
    expect(argv.join(' ')).toContain(`--tmpfs /tmp ${mounts} `);
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

  it('gives a read-only command an empty /run, and an approved one the host /run', async () => {
    const host = readdirSync('/run');
    expect(host.length).toBeGreaterThan(0);
    const readOnly = await sandboxed('ls -A /run | wc -l', false, {}, READ_ONLY);
    expect(readOnly.text.trim()).toBe('0');
    const approved = await sandboxed('ls -A /run | wc -l');
    expect(Number(approved.text.trim())).toBeGreaterThan(0);
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

  it('gives a read-only command a read-only project: even a write it attempts fails', async () => {
    const dir = await fx.project({ 'kept.txt': 'original\n', '.git/hooks': '' });
    const write = `sh -c 'echo x > made.txt'; echo y > kept.txt; touch .git/x; test -w . && echo WRITABLE || echo NOT-WRITABLE`;
    const readOnly = await sandboxed(write, false, {}, READ_ONLY, dir);
    expect(readOnly.text).toContain('NOT-WRITABLE');
    expect(readOnly.text).toContain('Read-only file system');
    await expect(read(dir, 'made.txt')).rejects.toThrow();
    expect(await read(dir, 'kept.txt')).toBe('original\n');
    await expect(read(dir, '.git/x')).rejects.toThrow();

    const readWrite = await sandboxed(write, false, {}, NO_GIT, dir);
    expect(readWrite.text).toContain('WRITABLE');
    expect(readWrite.text).not.toContain('NOT-WRITABLE');
    expect(await read(dir, 'made.txt')).toBe('x\n');
    expect(await read(dir, 'kept.txt')).toBe('y\n');
  });

  it('drops every capability, so a read-only project cannot be remounted writable', async () => {
    const dir = await fx.project({ 'kept.txt': 'original\n' });
    const result = await sandboxed(
      `grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status; ` +
        `mount -o remount,rw,bind ${dir} ${dir} && echo REMOUNTED; ` +
        'touch PWNED; echo changed > kept.txt',
      false,
      {},
      READ_ONLY,
      dir,
    );
    for (const cap of ['CapEff', 'CapPrm', 'CapBnd'])
      expect(result.text).toMatch(new RegExp(`${cap}:\\s+0{16}`));
    expect(result.text).not.toContain('REMOUNTED');
    await expect(read(dir, 'PWNED')).rejects.toThrow();
    expect(await read(dir, 'kept.txt')).toBe('original\n');
  });

  it('has its own hostname: changing it does not reach the host', async () => {
    const before = readFileSync('/proc/sys/kernel/hostname', 'utf8');
    // Refused (no capabilities), and even where allowed it would rename only the sandbox's own.
    const result = await sandboxed(
      'hostname tandem-sbx-renamed || echo REFUSED',
      false,
      {},
      NO_GIT,
    );
    expect(result.text).toContain('REFUSED');
    expect(readFileSync('/proc/sys/kernel/hostname', 'utf8')).toBe(before);
  });

  it('leaves files an approved command writes owned by the real user', async () => {
    const dir = await fx.project({ 'a.txt': 'a\n' });
    const result = await sandboxed(
      'mkdir made && echo x > made/file && id -u',
      false,
      {},
      GIT,
      dir,
    );
    expect(result.exitCode).toBe(0);
    expect(result.text.trim()).toBe(String(process.getuid?.()));
    for (const name of ['made', 'made/file']) {
      const stat = statSync(path.join(dir, name));
      expect([stat.uid, stat.gid]).toEqual([process.getuid?.(), process.getgid?.()]);
    }
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

  /** Live (non-zombie) processes whose command line is `sleep <marker>`. */
  const sleepers = (marker: number) =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          return (
            readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`sleep\u0000${marker}\u0000`) &&
            !/\) Z /.test(stat)
          );
        } catch {
          return false;
        }
      });

  /** Polls for up to 10 s, so a loaded machine cannot make it give up too early. */
  async function noSleepersLeft(marker: number): Promise<void> {
    for (let i = 0; i < 500 && sleepers(marker).length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(sleepers(marker)).toEqual([]);
  }

  it('leaves no process behind on timeout, and Ctrl-C from the person still works', async () => {
    const marker = 987_000 + (process.pid % 1000);
    const result = await sandboxed(`sleep ${marker} & echo started; sleep ${marker + 1}`, false, {
      timeoutMs: 3_000,
    });
    expect(result.ending).toBe('timed-out');
    await noSleepersLeft(marker);

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

  it('contained: what an exited command left running, in its group, another group or another session, dies with it without a /proc scan', async () => {
    const marker = 986_000 + (process.pid % 1000);
    // One keeps the pty open; the others are detached from it, so only the kernel ends them.
    const quiet = '>/dev/null 2>&1 </dev/null';
    const result = await sandboxed(
      `sleep ${marker} & sleep ${marker} ${quiet} & setsid sleep ${marker} ${quiet} & (set -m; sleep ${marker} ${quiet} &) ; echo left`,
      false,
      { contained: true },
    );
    expect(result).toMatchObject({ ending: 'exited', exitCode: 0 });
    expect(result.text).toContain('left');
    await noSleepersLeft(marker);
  });
});

describe('sandboxExecProfile', () => {
  const base = {
    folder: '/Users/me/proj',
    home: '/Users/me',
    allowNetwork: false,
    tmpDir: '/private/var/folders/x/T/tandem-cmd-1',
  };
  const gitEntries = [{ path: '/Users/me/proj/.git', kind: 'folder' }] as const;
  const profile = sandboxExecProfile({ ...base, access: GIT }, gitEntries);

  it('allows writes only to the project and its temp folder', () => {
    expect(profile).toContain('(deny file-write*)');
    expect(profile).toContain(
      '(allow file-write* (subpath "/Users/me/proj") (subpath "/private/var/folders/x/T/tandem-cmd-1")',
    );
  });

  it('keeps git hooks and settings read-only, hides home, cuts network', () => {
    expect(profile).toContain(
      '(deny file-write* (literal "/Users/me/proj/.git") (subpath "/Users/me/proj/.git/hooks") (subpath "/Users/me/proj/.git/config") (subpath "/Users/me/proj/.git/commondir")',
    );
    expect(profile).toContain('(deny file-read* (subpath "/Users/me"))');
    expect(profile).toContain('(allow file-read* (subpath "/Users/me/proj")');
    expect(profile).toContain('(deny network*)');
    // Later rules win in SBPL: the project re-allow must follow the home deny.
    expect(profile.indexOf('(allow file-read* (subpath "/Users/me/proj")')).toBeGreaterThan(
      profile.indexOf('(deny file-read*'),
    );
  });

  it('gives a read-only command no project writes, and a command without git no .git writes', () => {
    const readOnly = sandboxExecProfile({ ...base, access: READ_ONLY }, gitEntries);
    expect(readOnly).toContain(
      '(allow file-write* (subpath "/private/var/folders/x/T/tandem-cmd-1") (literal "/dev/null")',
    );
    expect(readOnly).not.toContain('(allow file-write* (subpath "/Users/me/proj")');
    const noGit = sandboxExecProfile({ ...base, access: NO_GIT }, gitEntries);
    expect(noGit).toContain('(deny file-write* (subpath "/Users/me/proj/.git"))');
    // Later rules win in SBPL: the .git deny must follow the project allow.
    expect(noGit.indexOf('(deny file-write* (subpath "/Users/me/proj/.git"))')).toBeGreaterThan(
      noGit.indexOf('(allow file-write* (subpath "/Users/me/proj")'),
    );
  });

  it('leaves the network on when allowed and quotes paths safely', () => {
    const open = sandboxExecProfile(
      { folder: '/p/a "b"', home: '/h', allowNetwork: true, tmpDir: '/t', access: GIT },
      [],
    );
    expect(open).not.toContain('network*');
    expect(open).toContain('(subpath "/p/a \\"b\\"")');
  });
});
