import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { BWRAP_BASE_ARGS, resolverMounts } from './sandbox-launcher';
import { probeSandbox } from './sandbox-probe';

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// systemd-resolved's layout: /etc/resolv.conf -> /run/systemd/resolve/stub-resolv.conf.
const canFake = writable('/run');
const state = await probeSandbox();
const made: string[] = [];
function fakeResolver(): { link: string; target: string } {
  const inRun = mkdtempSync('/run/tandem-resolve-');
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'tandem-etc-'));
  made.push(inRun, elsewhere);
  const target = path.join(inRun, 'stub-resolv.conf');
  writeFileSync(target, 'nameserver 127.0.0.53\n');
  const link = path.join(elsewhere, 'resolv.conf');
  symlinkSync(target, link);
  return { link, target };
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('resolverMounts (names resolve for a read-only sandbox with network)', () => {
  it('binds nothing for a plain file or a missing one', () => {
    const plain = mkdtempSync(path.join(tmpdir(), 'tandem-etc-'));
    made.push(plain);
    writeFileSync(path.join(plain, 'resolv.conf'), 'nameserver 1.1.1.1\n');
    expect(resolverMounts('/srv/p', path.join(plain, 'resolv.conf'))).toEqual([]);
    expect(resolverMounts('/srv/p', path.join(plain, 'missing'))).toEqual([]);
  });

  it.runIf(canFake)('binds back the one file a link into /run leads to', () => {
    const { link, target } = fakeResolver();
    expect(resolverMounts('/srv/p', link)).toEqual(['--ro-bind', target, target]);
    // A project inside /run keeps /run as it is: nothing to bring back.
    expect(resolverMounts('/run', link)).toEqual([]);
  });

  it.runIf(canFake && state.kind === 'bwrap')(
    'in bubblewrap, that file is readable and its folder’s other files are not',
    () => {
      const { link, target } = fakeResolver();
      const neighbour = path.join(path.dirname(target), 'socket-stand-in');
      writeFileSync(neighbour, 'host');
      const run = (file: string) =>
        spawnSync(
          'bwrap',
          [...BWRAP_BASE_ARGS, '--tmpfs', '/run', ...resolverMounts('/srv/p', link), 'cat', file],
          { encoding: 'utf8' },
        );
      expect(run(target).stdout).toBe('nameserver 127.0.0.53\n');
      expect(run(neighbour).status).not.toBe(0);
    },
  );
});
