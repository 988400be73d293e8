import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from './command-classifier';
import { CLASSIFIER_CASES as CASES, type ClassifierCase as Case } from './command-classifier.cases';

const FOLDER = '/work/project';

describe('classifyCommand', () => {
  it('has a table of at least 150 commands', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
  });

  it.each(CASES.map((c) => [JSON.stringify(c[0]), ...c] as const))(
    '%s',
    async (_label, command, safe, fragments) => {
      const result = await classifyCommand(command, FOLDER);
      expect(result.safe, JSON.stringify(result.reasons)).toBe(safe);
      if (safe) expect(result.reasons).toEqual([]);
      else expect(result.reasons.length).toBeGreaterThan(0);
      for (const fragment of fragments ?? []) {
        expect(result.reasons.join('\n')).toContain(fragment);
      }
      expect(result.safe).toBe(
        result.parsed &&
          result.parts.length > 0 &&
          result.parts.every((p) => p.safe) &&
          result.reasons.length === 0,
      );
    },
  );

  it('splits into parts with real words after quote removal', async () => {
    const result = await classifyCommand(
      `npm test -- --grep 'a b' && git log "--format=%h"; ls | wc -l`,
      FOLDER,
    );
    expect(result.parts.map((p) => p.argv)).toEqual([
      ['npm', 'test', '--', '--grep', 'a b'],
      ['git', 'log', '--format=%h'],
      ['ls'],
      ['wc', '-l'],
    ]);
    expect(result.parts.map((p) => p.safe)).toEqual([false, true, true, true]);
  });

  it('keeps a quoted separator inside one word and joins line continuations', async () => {
    expect((await classifyCommand('echo "a;b" \\\n c', FOLDER)).parts.map((p) => p.argv)).toEqual([
      ['echo', 'a;b', 'c'],
    ]);
  });

  it('shows the commands inside substitutions as parts of their own', async () => {
    const result = await classifyCommand('cat $(rm -rf x)', FOLDER);
    expect(result.parts.map((p) => p.argv[0])).toEqual(['cat', 'rm']);
    expect(result.parts.every((p) => !p.safe)).toBe(true);
  });

  it('follows symlinks inside a real folder that lead outside it', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await writeFile(path.join(folder, 'inside.txt'), 'x');
      await symlink('/etc/hostname', path.join(folder, 'innocent.txt'));
      await symlink('/etc', path.join(folder, 'conf'));
      expect((await classifyCommand('cat inside.txt', folder)).safe).toBe(true);
      expect((await classifyCommand('cat innocent.txt', folder)).reasons).toContain(
        'reads outside the project folder: innocent.txt',
      );
      expect((await classifyCommand('cat conf/passwd', folder)).safe).toBe(false);
      expect((await classifyCommand('wc -l < innocent.txt', folder)).safe).toBe(false);
      expect((await classifyCommand('cd conf && cat passwd', folder)).reasons).toContain(
        'changes to a folder outside the project: conf',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('expands wildcards against the real folder and asks for links that lead outside', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await writeFile(path.join(folder, 'README.md'), 'x');
      await writeFile(path.join(folder, 'a.ts'), 'x');
      await mkdir(path.join(folder, 'sub'));
      await symlink('/etc/passwd', path.join(folder, 'link'));
      await symlink('/etc', path.join(folder, 'sub', 'conf'));
      const table: readonly Case[] = [
        [
          'cat li*',
          false,
          ['a wildcard matches a link that leads outside the project folder: li*'],
        ],
        ['cat l?nk', false, ['(link)']],
        ['cat LI*', false, ['(link)']],
        ['cat @(link)', false, ['could not be parsed']],
        ["cat 'li'*", false, ['(link)']],
        ['cat sub/*/passwd', false, ['(sub/conf/passwd)']],
        ['ls sub/*', false, ['(sub/conf)']],
        ['cd sub && cat *', false, ['(link)']],
        ['wc -l < li*', false, ['(link)']],
        ['cd s* && ls', false, ['changes folder in a way that cannot be checked']],
        ['ls **/x', false, ['a wildcard that cannot be checked']],
        ['cat *.md', true],
        ['ls *.ts', true],
        ['find *.ts', true],
        ["cat 'l*'", true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, folder);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
      // A wildcard that matches a file named like an option asks for commands that have them.
      await writeFile(path.join(folder, '-delete'), 'x');
      expect((await classifyCommand('find *', folder)).reasons).toContain(
        'a wildcard could expand to a file named like an option of find',
      );
      expect((await classifyCommand('cat *.md', folder)).safe).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('asks for git read commands when the repository is larger than the folder', async () => {
    const top = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-git-')));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: top };
      execFileSync('git', ['init', '-q', top], { env });
      await mkdir(path.join(top, 'project'));
      await mkdir(path.join(top, 'own'));
      execFileSync('git', ['init', '-q', path.join(top, 'own')], { env });
      const project = path.join(top, 'project');
      for (const command of [
        'git show HEAD:secret.txt',
        'git log -p',
        'git status',
        'git grep x',
      ]) {
        const result = await classifyCommand(command, project);
        expect(result.safe, command).toBe(false);
        expect(result.reasons).toContain(
          `the git repository (${top}) is larger than the project folder`,
        );
      }
      expect((await classifyCommand('ls', project)).safe).toBe(true);
      // The repository's own top, and a folder outside any repository, are fine.
      expect((await classifyCommand('git status', path.join(top, 'own'))).safe).toBe(true);
      expect((await classifyCommand('git log -p', top)).safe).toBe(true);
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });

  it('judges number-named files, folder operands of diff and .* wildcards on a real folder', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await mkdir(path.join(folder, 'sub'));
      await mkdir(path.join(folder, 'other'));
      await writeFile(path.join(folder, 'a'), 'x');
      await writeFile(path.join(folder, 'b'), 'y');
      await symlink('/etc/passwd', path.join(folder, '5'));
      const table: readonly Case[] = [
        ['cat < 5', false, ['reads outside the project folder: < 5']],
        ['wc -l 0< 5', false, ['reads outside the project folder']],
        ['diff sub other', false, ['reads the files inside a folder, following any link there']],
        ['diff a sub', false, ['diff sub']],
        ['diff --from-file=sub a', false, ['diff --from-file=sub']],
        ['diff s* a', false, ['reads the files inside a folder']],
        ['cd sub && diff . ../other', false, ['reads the files inside a folder']],
        ['diff a b', true],
        ['diff -u a b', true],
        // bash < 5.2 (macOS /bin/bash 3.2) lets `.*` match `..`.
        ['cat .*/secret', false, ['a wildcard may match a path outside the project folder']],
        ['ls -d .*', false, ['(..)']],
        ['cat ?./x', false, ['outside the project folder']],
        ['cat sub/.*', true],
        ['[ -f .*/x ]', false, ['outside the project folder']],
        ['[ -f a ]', true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, folder);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('asks when git would use a repository outside the project (gitfiles, -C, cd)', async () => {
    const top = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-git-')));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: top };
      const project = path.join(top, 'project');
      const outside = path.join(top, 'outside');
      execFileSync('git', ['init', '-q', project], { env });
      execFileSync('git', ['init', '-q', outside], { env });
      await mkdir(path.join(project, 'nested'));
      await mkdir(path.join(project, 'plain'));
      await writeFile(path.join(project, 'nested', '.git'), `gitdir: ${outside}/.git\n`);
      const away = `git would use a repository outside the project: ${outside}`;
      const table: readonly Case[] = [
        ['git -C nested log -p', false, [away]],
        ['git -C plain -C ../nested status', false, [away]],
        ['cd nested && git log', false, [away]],
        ['cd nested; git show HEAD', false, [away]],
        ['git -C plain status', true],
        ['cd plain && git log', true],
        ['git status', true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, project);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
      // Read commands run programs the repository's config names (filters, textconv, pager).
      execFileSync('git', ['-C', project, 'config', 'filter.x.smudge', 'touch pwned'], { env });
      execFileSync('git', ['-C', project, 'config', 'diff.y.textconv', 'cat'], { env });
      const runs = await classifyCommand('git log -p', project);
      expect(runs.safe).toBe(false);
      expect(runs.reasons).toContain(
        "the repository's config runs programs (filter.x.smudge, diff.y.textconv)",
      );
      expect((await classifyCommand('ls', project)).safe).toBe(true);
      // A project whose own .git is a gitfile leading out.
      const linked = path.join(top, 'linked');
      await mkdir(linked);
      await writeFile(path.join(linked, '.git'), `gitdir: ${outside}/.git\n`);
      const result = await classifyCommand('git log', linked);
      expect(result.safe).toBe(false);
      expect(result.reasons.join('\n')).toContain(away);
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });

  it('hangs a redirection after a list or pipeline on its last command, as bash does', async () => {
    const table: readonly [string, readonly (readonly string[])[]][] = [
      ['ls && echo hi > out.txt', [[], ['writes to a file: > out.txt']]],
      ['ls | grep x > out.txt', [[], ['writes to a file: > out.txt']]],
      ['ls || pwd && cat a > f', [[], [], ['writes to a file: > f']]],
      // A group takes the redirection whole.
      ['{ ls; pwd; } > f', [['writes to a file: > f'], ['writes to a file: > f']]],
      ['(ls && pwd) > f', [['writes to a file: > f'], ['writes to a file: > f']]],
    ];
    for (const [command, reasons] of table) {
      const result = await classifyCommand(command, FOLDER);
      expect(result.safe, command).toBe(false);
      expect(
        result.parts.map((part) => part.reasons),
        command,
      ).toEqual(reasons);
    }
  });

  it('reports a parse failure as not parsed, with no parts', async () => {
    const result = await classifyCommand('(ls', FOLDER);
    expect(result).toMatchObject({ parsed: false, safe: false, parts: [] });
  });
});
