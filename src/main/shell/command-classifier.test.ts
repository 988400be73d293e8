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
    expect(result.safe).toBe(false);
    expect(result.structural).toEqual(['runs a nested command: $(rm -rf x)']);
    expect(result.parts.map((p) => p.argv[0])).toEqual(['cat', 'rm']);
    expect(result.parts[1]?.safe).toBe(false);
    expect(result.canonical).toBeUndefined();
  });

  it('expands wildcards itself, as bash would, and judges the files they match', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await writeFile(path.join(folder, 'README.md'), 'x');
      await writeFile(path.join(folder, 'a.ts'), 'x');
      await writeFile(path.join(folder, '.hidden.ts'), 'x');
      await mkdir(path.join(folder, 'sub'));
      await symlink('/etc/passwd', path.join(folder, 'link'));
      await symlink('/etc', path.join(folder, 'sub', 'conf'));
      const table: readonly Case[] = [
        ['cat li*', false, ['reads outside the project folder: link']],
        ['cat l?nk', false, ['reads outside the project folder: link']],
        ["cat 'li'*", false, ['reads outside the project folder: link']],
        ['cat sub/*/passwd', false, ['reads outside the project folder: sub/conf/passwd']],
        ['ls sub/*', false, ['reads outside the project folder: sub/conf']],
        ['cat [!x]ink', false, ['a [ ] wildcard is not expanded in advance: [!x]ink']],
        ['cat @(link)', false, ['could not be parsed']],
        ['cd sub && cat *', false, ['a wildcard after cd cannot be expanded in advance: *']],
        ['wc -l < li*', false, ['a wildcard in a redirection']],
        ['l* -la', false, ['a wildcard in the program name']],
        ['cat *.md', true],
        ['ls *.ts', true],
        ['find *.ts', true],
        ["cat 'l*'", true],
        ['cat l\\*', true],
        // bash never lets `.*` reach `.` or `..` here: Tandem expands it, and it does not.
        ['cat .*/secret', true],
        ['cat ?./x', true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, folder);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
      expect((await classifyCommand('ls *.ts', folder)).canonical).toBe("'ls' 'a.ts'");
      expect((await classifyCommand('ls .*.ts', folder)).canonical).toBe("'ls' '.hidden.ts'");
      expect((await classifyCommand('cat *.none', folder)).canonical).toBe("'cat' '*.none'");
      // A match named like an option is judged as the option it becomes.
      await writeFile(path.join(folder, '-delete'), 'x');
      const find = await classifyCommand('find *', folder);
      expect(find.safe).toBe(false);
      expect(find.parts[0]?.argv).toContain('-delete');
      expect(find.reasons.join('\n')).toContain('find -delete');
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

  it('judges number-named files and folder operands of diff on a real folder', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await mkdir(path.join(folder, 'sub'));
      await mkdir(path.join(folder, 'other'));
      await writeFile(path.join(folder, 'a'), 'x');
      await writeFile(path.join(folder, 'b'), 'y');
      await symlink('/etc/passwd', path.join(folder, '5'));
      const table: readonly Case[] = [
        ['cat < 5', false, ['reads outside the project folder: < 5']],
        // bash reads `0<` as descriptor 0 where tree-sitter sees a word `0`: that alone asks.
        ['wc -l 0< 5', false, ['a number right before a redirection']],
        ['diff sub other', false, ['reads the files inside a folder, following any link there']],
        ['diff a sub', false, ['diff sub']],
        ['diff --from-file=sub a', false, ['diff --from-file=sub']],
        ['diff s* a', false, ['reads the files inside a folder']],
        ['cd sub && diff . ../other', false, ['reads the files inside a folder']],
        ['diff a b', true],
        ['diff -u a b', true],
        ['cat sub/.*', true],
        ['test -f a', true],
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

  it('reads the worktree config and nested repositories at any depth (issue 9 rows 8 and 9)', async () => {
    const project = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-git-')));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project };
      const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env });
      git(project, 'init', '-q');
      expect((await classifyCommand('git diff', project)).safe).toBe(true);
      // Row 8: settings in .git/config.worktree, which `git config --local` never shows.
      git(project, 'config', 'extensions.worktreeConfig', 'true');
      git(project, 'config', '--worktree', 'diff.x.textconv', 'touch PWNED');
      const worktree = await classifyCommand('git diff', project);
      expect(worktree.safe).toBe(false);
      expect(worktree.reasons).toContain("the repository's config runs programs (diff.x.textconv)");
      git(project, 'config', '--worktree', '--unset', 'diff.x.textconv');
      expect((await classifyCommand('git log -p', project)).safe).toBe(true);
      // Row 9: a submodule three levels down (a gitlink in the index) whose own config runs a
      // clean filter; git enters it from the top.
      const deep = path.join(project, 'a', 'b', 'c');
      await mkdir(deep, { recursive: true });
      git(deep, 'init', '-q');
      await writeFile(path.join(deep, 'f.txt'), 'f');
      git(deep, 'add', 'f.txt');
      git(deep, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'sub');
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: deep, env, encoding: 'utf8' });
      git(project, 'update-index', '--add', '--cacheinfo', `160000,${head.trim()},a/b/c`);
      expect((await classifyCommand('git status', project)).safe).toBe(true);
      git(deep, 'config', 'filter.y.clean', 'touch PWNED');
      for (const command of ['git status', 'git diff', 'git log -p']) {
        const result = await classifyCommand(command, project);
        expect(result.safe, command).toBe(false);
        expect(result.reasons, command).toContain(
          "a nested repository's config runs programs (a/b/c: filter.y.clean)",
        );
      }
      // An untracked nested repository is not entered from the top, only when git runs in it.
      git(project, 'update-index', '--force-remove', 'a/b/c');
      expect((await classifyCommand('git status', project)).safe).toBe(true);
      for (const command of ['git -C a/b/c status', 'cd a/b/c && git diff']) {
        expect((await classifyCommand(command, project)).reasons, command).toContain(
          "the repository's config runs programs (filter.y.clean)",
        );
      }
      expect((await classifyCommand('ls', project)).safe).toBe(true);
      // Options that walk into submodules ask whatever their configs hold.
      for (const command of ['git diff --submodule=diff', 'git grep --recurse-submodules x']) {
        expect((await classifyCommand(command, project)).reasons.join('\n')).toContain(
          'uses an option that can write, run something or read past the folder',
        );
      }
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('hangs an allowed redirection after a list or pipeline on its last command, as bash does', async () => {
    const table: readonly [string, string][] = [
      ['ls && cat a 2>/dev/null', "'ls' && 'cat' 'a' 2>/dev/null"],
      ['ls | grep x >/dev/null 2>&1', "'ls' | 'grep' 'x' >/dev/null 2>&1"],
      ['ls || pwd && cat < a', "'ls' || 'pwd' && 'cat' <'a'"],
    ];
    for (const [command, canonical] of table) {
      const result = await classifyCommand(command, FOLDER);
      expect(result.safe, command).toBe(true);
      expect(result.canonical, command).toBe(canonical);
    }
    // One that writes is about the whole line: no rule can speak for it.
    const writes = await classifyCommand('ls && echo hi > out.txt', FOLDER);
    expect(writes.safe).toBe(false);
    expect(writes.structural).toEqual(['writes to a file: > out.txt']);
  });

  it('reports a parse failure as not parsed, with no parts', async () => {
    const result = await classifyCommand('(ls', FOLDER);
    expect(result).toMatchObject({ parsed: false, safe: false, parts: [] });
  });
});
