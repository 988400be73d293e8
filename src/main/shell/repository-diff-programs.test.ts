import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandEnv } from './command-env';
import { repositorySettings } from './git-toplevel';
import { repositoryDiffPrograms } from './repository-diff-programs';

let root: string;
let globalConfig: string;
let script: string;
let marker: string;

/** The person's environment, with a global config of their own. */
const person = () => ({ ...process.env, GIT_CONFIG_GLOBAL: globalConfig, GIT_PAGER: 'cat' });

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
    encoding: 'utf8',
    env: person(),
  });
}

async function repo(name: string): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q');
  await writeFile(path.join(dir, 'f.txt'), 'old\n');
  git(dir, 'add', 'f.txt');
  git(dir, 'commit', '-qm', 'first');
  await writeFile(path.join(dir, 'f.txt'), 'new\n');
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-diff-programs-'));
  globalConfig = path.join(root, 'global.gitconfig');
  // The person's own diff tool (say, difftastic) is theirs to keep.
  await writeFile(globalConfig, '[diff]\n\texternal = difft\n');
  marker = path.join(root, 'ext-diff-ran');
  script = path.join(root, 'ext.sh');
  await writeFile(script, `#!/bin/sh\necho EXT-DIFF-RAN\ntouch ${marker}\n`);
  await chmod(script, 0o755);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('repositorySettings', () => {
  it('keeps settings from the scopes a repository controls', () => {
    const output =
      'global\0diff.external\ndifft\0local\0diff.external\n/x\0worktree\0diff.My Tool.command\nevil\0command\0diff.x.command\ny\0';
    expect(repositorySettings(output)).toEqual([
      { key: 'diff.external', value: '/x' },
      { key: 'diff.My Tool.command', value: 'evil' },
    ]);
    expect(repositorySettings('')).toEqual([]);
  });
});

describe('repositoryDiffPrograms', () => {
  it('finds the diff programs a repository (or a nested one, or an included file) sets, not the person’s', async () => {
    const project = await repo('project');
    expect(await repositoryDiffPrograms(project, person())).toEqual([]);
    git(project, 'config', 'diff.external', script);
    const nested = await repo('project/vendor/lib');
    const included = path.join(root, 'included.gitconfig');
    await writeFile(included, '[diff "tool"]\n\tcommand = evil\n');
    git(nested, 'config', 'include.path', included);
    expect((await repositoryDiffPrograms(project, person())).sort()).toEqual([
      'diff.external',
      'diff.tool.command',
    ]);
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    expect(await repositoryDiffPrograms(empty, person())).toEqual([]);
  });

  it('keeps git diff from running the program a repository sets, which it would run otherwise', async () => {
    const dir = await repo('plain');
    git(dir, 'config', 'diff.external', script);
    expect(git(dir, 'diff')).toContain('EXT-DIFF-RAN');
    await rm(marker);
    const refusedKeys = await repositoryDiffPrograms(dir, person());
    const env = commandEnv(person(), [], { kind: 'read-only', refusedKeys });
    let output = '';
    try {
      execFileSync('git', ['diff'], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stderr?: unknown }).stderr);
    }
    expect(output).toContain('Tandem did not run the diff program');
    expect(existsSync(marker)).toBe(false);
    expect(
      execFileSync('git', ['diff', '--no-ext-diff'], { cwd: dir, env, encoding: 'utf8' }),
    ).toContain('+new');
  });
});
