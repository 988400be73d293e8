// Issue 11 item 5, piece by piece: Tandem's data folder inside a project folder. The path guard
// refuses it for reads and writes (however the path gets there), a command argument naming it
// asks, without a sandbox every command asks, and the bubblewrap plan covers it with an empty tmpfs.
import { mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../shared/tool-types';
import { decidePolicy, type PolicyInput } from '../permissions/policy';
import { realPolicyDeps } from '../permissions/real-policy-deps';
import { classifyCommand } from '../shell/command-classifier';
import { bwrapArgv, dataFoldersToHide, sandboxExecProfile } from '../shell/sandbox-launcher';
import { realDataFolder } from '../store/data-dir';
import { guardPath } from './path-guard';

let root: string;
let folder: string;
let data: string;
/** Outside /tmp, so neither the private /tmp nor the project decides for it. */
let varTmp: string;
const SANDBOXED: SandboxState = { kind: 'bwrap', available: true, description: 'bwrap' };
const NO_SANDBOX: SandboxState = { kind: 'none', available: false, description: 'none' };

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-datafolder-')));
  folder = join(root, 'proj');
  data = join(folder, '.config', 'tandem');
  await mkdir(join(data, 'projects', 'p'), { recursive: true });
  await writeFile(join(data, 'projects', 'p', 'permissions.json'), '{}');
  await writeFile(join(folder, 'notes.txt'), 'n\n');
  await mkdir(join(folder, '.config', 'tandem-other'));
  await symlink('.config/tandem', join(folder, 'link-to-data'));
  await symlink(join(data, 'projects'), join(folder, 'abs-link'));
  await mkdir(join(root, 'tmp-data'));
  varTmp = await realpath(await mkdtemp('/var/tmp/tandem-datafolder-'));
  await mkdir(join(varTmp, 'home', '.local', 'share', 'tandem'), { recursive: true });
  await mkdir(join(varTmp, 'elsewhere-data'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(varTmp, { recursive: true, force: true });
});

describe('guardPath with an untouchable data folder', () => {
  it.each([
    ['the rules file', '.config/tandem/projects/p/permissions.json'],
    ['the folder itself', '.config/tandem'],
    ['a file not created yet', '.config/tandem/new.txt'],
    ['a path walking back in', 'notes.txt/../.config/x/../tandem/projects'],
    ['a relative symlink to it', 'link-to-data/projects/p/permissions.json'],
    ['an absolute symlink into it', 'abs-link/p'],
    ['its absolute path', 'ABS'],
  ])('refuses %s, for reads and writes', async (_, requested) => {
    const path = requested === 'ABS' ? join(data, 'projects') : requested;
    for (const access of ['read', 'write'] as const) {
      const result = await guardPath(folder, path, access, { untouchable: [data] });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toContain(`in Tandem's own data folder (${data})`);
    }
  });

  it.each([['.config/tandem-other'], ['.config'], ['.'], ['notes.txt']])(
    'lets %s through: beside or above the data folder is the project',
    async (requested) => {
      expect((await guardPath(folder, requested, 'write', { untouchable: [data] })).ok).toBe(true);
    },
  );

  it('compares real paths: a data folder given through a symlink is found by its real path', async () => {
    const viaLink = join(folder, 'link-to-data');
    expect(realDataFolder(viaLink)).toBe(data);
    expect(realDataFolder(join(viaLink, 'not-yet', 'x'))).toBe(join(data, 'not-yet', 'x'));
  });
});

describe('commands and the data folder', () => {
  const untouchable = () => [data];

  it.each([
    ['cat .config/tandem/projects/p/permissions.json'],
    ['ls link-to-data'],
    ['wc -l < .config/tandem/projects/p/permissions.json'],
    ['cd .config && ls tandem'],
    ['cat .config/tand*/projects/p/permissions.json'],
    ['git -C .config/tandem status'],
  ])('a path argument into it asks: %s', async (command) => {
    const verdict = await classifyCommand(command, folder, { untouchable: untouchable() });
    expect(verdict.safe).toBe(false);
    expect(verdict.reasons.join('\n')).toContain("names Tandem's own data folder");
    // Without the data folder named, the same command is an ordinary read.
    if (!command.startsWith('git'))
      expect((await classifyCommand(command, folder)).safe).toBe(true);
  });

  it.each([['ls'], ['cat notes.txt'], ['ls .config/tandem-other']])(
    '%s stays read-only',
    async (command) => {
      expect((await classifyCommand(command, folder, { untouchable: untouchable() })).safe).toBe(
        true,
      );
    },
  );

  function policy(command: string, over: Partial<PolicyInput>): PolicyInput {
    return {
      toolName: 'shell',
      effect: 'exec',
      target: { kind: 'command', command },
      folder,
      mode: 'ask',
      network: 'ask',
      rules: [],
      grants: [],
      sandbox: SANDBOXED,
      dataFolders: [data],
      ...over,
    };
  }

  it('with a sandbox, a read-only command runs (the sandbox hides the data folder)', async () => {
    expect((await decidePolicy(policy('grep -r x .', {}), realPolicyDeps)).decision).toBe('run');
  });

  it('without a sandbox, every command asks, and read-only mode refuses', async () => {
    const asked = await decidePolicy(
      policy('grep -r x .', { sandbox: NO_SANDBOX }),
      realPolicyDeps,
    );
    expect(asked.decision).toBe('ask');
    expect(asked.reasons.join('\n')).toContain('commands are not sandboxed here');
    const refused = await decidePolicy(
      policy('ls', { sandbox: NO_SANDBOX, mode: 'read-only' }),
      realPolicyDeps,
    );
    expect(refused.decision).toBe('refuse');
  });

  it('a file tool path into it is refused by the policy, in every mode', async () => {
    for (const mode of ['ask', 'auto-edit', 'autonomous', 'read-only'] as const) {
      const d = await decidePolicy(
        policy('', {
          toolName: 'write_file',
          effect: 'write',
          target: {
            kind: 'path',
            path: join(data, 'projects/p/permissions.json'),
            access: 'write',
          },
          mode,
        }),
        realPolicyDeps,
      );
      expect(d.decision).toBe('refuse');
    }
  });
});

describe('the sandbox plan', () => {
  const made = (dir: string): string => {
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const plan = (dataFolders: string[], home = join(varTmp, 'home')) => ({
    folder,
    home,
    allowNetwork: false,
    access: { kind: 'read-write' as const, git: 'read-only' as const },
    dataFolders,
  });

  it('covers a data folder inside the project with an empty read-only tmpfs, after the project', () => {
    const argv = bwrapArgv(plan([data]), ['true'], []);
    const projectBind = argv.indexOf(folder);
    const cover = argv.indexOf(data);
    expect(projectBind).toBeGreaterThan(0);
    expect(cover).toBeGreaterThan(projectBind);
    expect(argv.slice(cover - 1, cover + 3)).toEqual(['--tmpfs', data, '--remount-ro', data]);
  });

  it.each([
    ['inside the project', () => [data], () => [data]],
    [
      // Inside, though its relative path starts with "..": the project lies under /tmp here.
      'inside the project, named ..tandem',
      () => [made(join(folder, '..tandem'))],
      () => [join(folder, '..tandem')],
    ],
    ['missing', () => [join(folder, 'nope')], () => []],
    ['under the private /tmp, outside the project', () => [join(root, 'tmp-data')], () => []],
    [
      'under the hidden home folder',
      () => [join(varTmp, 'home', '.local', 'share', 'tandem')],
      () => [],
    ],
    [
      'visible elsewhere',
      () => [join(varTmp, 'elsewhere-data')],
      () => [join(varTmp, 'elsewhere-data')],
    ],
    ['holding the project (cannot be hidden without it)', () => [root], () => []],
  ])('a data folder %s', (_, given, expected) => {
    expect(dataFoldersToHide(plan(given()))).toEqual(expected());
  });

  it('denies reading and writing it under sandbox-exec', () => {
    const profile = sandboxExecProfile({ ...plan([data]), tmpDir: '/private/tmp/t' }, []);
    expect(profile).toContain(`(deny file-read* file-write* (subpath "${data}"))`);
  });
});
