// Holes a second attack found in the issue-9 classifier, each as a row: the command must ask, and
// the harm is shown real by running the command line the classifier rebuilt (verdict.canonical)
// in bash, in the clean environment with read-only git settings, WITHOUT the sandbox, in a fresh
// fixture (so no row can pass vacuously). `outside/secret.txt` holds a canary next to the project.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWidening } from '../permissions/rule-widening';
import { classifyCommand } from './command-classifier';
import { cleanEnvironment, commandEnv } from './command-env';

let root: string;
let counter = 0;
const CANARY = `CANARY-${process.pid}`;
const hasStrace = spawnSync('strace', ['-V']).status === 0;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-holes-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Fixture {
  readonly project: string;
  readonly outside: string;
}

function git(dir: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
    { cwd: dir, stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } },
  );
}

/** A fresh `project` with `a.txt`, beside `outside/secret.txt` (the canary). */
async function fixture(): Promise<Fixture> {
  const base = path.join(root, `f${counter++}`);
  const project = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  await mkdir(project, { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), `${CANARY}\n`);
  await writeFile(path.join(project, 'a.txt'), 'alpha\n');
  return { project, outside };
}

async function repository(project: string): Promise<void> {
  git(project, 'init', '-q');
  git(project, 'add', '-A');
  git(project, 'commit', '-qm', 'one');
}

interface Ran {
  readonly output: string;
  /** Programs it started or tried to (basenames), when strace is there to see them. */
  readonly started: readonly string[];
}

/** Runs the judged command line in bash as the shell tool would, minus the sandbox. */
function runJudged(canonical: string, project: string, home?: string): Ran {
  const base = home === undefined ? process.env : { ...process.env, HOME: home };
  const env = commandEnv(cleanEnvironment(base, project), [], {
    kind: 'read-only',
    refusedKeys: [],
  });
  const trace = path.join(project, '..', 'trace');
  const bash = ['bash', '--norc', '--noprofile', '-c', canonical];
  const argv = hasStrace
    ? ['strace', '-f', '-qq', '-e', 'trace=execve', '-o', trace, ...bash]
    : bash;
  const result = spawnSync(argv[0] ?? 'bash', argv.slice(1), {
    cwd: project,
    env,
    encoding: 'utf8',
    timeout: 15_000,
    input: '',
  });
  const log = hasStrace && existsSync(trace) ? readFileSync(trace, 'utf8') : '';
  // Every program it tried to start counts, found or not.
  const started = [...log.matchAll(/execve\("([^"]+)"/g)].map((m) => path.basename(m[1] ?? ''));
  return { output: `${result.stdout ?? ''}${result.stderr ?? ''}`, started };
}

interface Hole {
  readonly name: string;
  readonly command: string;
  readonly setup?: (f: Fixture) => Promise<void>;
  /** Whether running the judged command line did the harm. */
  readonly harmed: (ran: Ran, f: Fixture) => boolean;
  readonly needsStrace?: boolean;
}

const printsCanary = (ran: Ran): boolean => ran.output.includes(CANARY);
/** `l -> .`: `l/..` is the project's parent to the kernel, the project itself to path.resolve. */
const selfLink = async ({ project }: Fixture): Promise<void> => {
  await symlink('.', path.join(project, 'l'));
};

const HOLES: readonly Hole[] = [
  {
    name: '`..` after a symlink (l -> .) reads outside',
    command: 'cat l/../outside/secret.txt',
    setup: selfLink,
    harmed: printsCanary,
  },
  {
    name: '`..` after a symlink, in a < redirection',
    command: 'cat < l/../outside/secret.txt',
    setup: selfLink,
    harmed: printsCanary,
  },
  {
    name: '`..` after a link to a shallower folder (sub/deep/up -> ../..)',
    command: 'date -f sub/deep/up/../outside/secret.txt',
    setup: async ({ project }) => {
      await mkdir(path.join(project, 'sub', 'deep'), { recursive: true });
      await symlink('../..', path.join(project, 'sub', 'deep', 'up'));
    },
    harmed: printsCanary,
  },
  {
    name: '`..` after a symlink, in a wildcard (lists the outside folder)',
    command: 'ls l/../outside/*',
    setup: selfLink,
    harmed: (ran) => ran.output.includes('secret.txt'),
  },
  {
    name: 'xxd reads options only before its first operand: `-out` is the output file',
    command: 'xxd a.txt -out',
    harmed: (_ran, { project }) => existsSync(path.join(project, '-out')),
  },
  {
    name: 'strings @FILE reads arguments from FILE and names each in an error',
    command: 'strings @../outside/secret.txt',
    harmed: printsCanary,
  },
  {
    name: 'file -m takes a colon-separated list of magic files',
    command: 'file -m a.txt:../outside/secret.txt a.txt',
    harmed: printsCanary,
  },
  {
    name: 'file --magic-file=LIST, the same with =',
    command: 'file --magic-file=x:../outside/secret.txt a.txt',
    harmed: printsCanary,
  },
  {
    name: 'file -z starts decompressors (as rg -z does)',
    command: 'file -z a.zst',
    setup: async ({ project }) => {
      // zstd's magic number: file hands such a file to the `zstd` program (gzip it reads itself).
      await writeFile(path.join(project, 'a.zst'), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]));
    },
    harmed: (ran) => ran.started.some((p) => p !== 'bash' && p !== 'file'),
    needsStrace: true,
  },
  {
    name: 'git --bare makes the project the repository: its tracked config names a textconv',
    command: 'git --bare log -p',
    setup: async ({ project }) => {
      await writeFile(path.join(project, 'f.txt'), 'v1\n');
      await repository(project);
      await writeFile(path.join(project, 'f.txt'), 'v2\n');
      git(project, 'commit', '-qam', 'two');
      // What a hostile repository can simply commit at its top: a bare repository's layout.
      execFileSync('cp', ['-r', '.git/objects', '.git/refs', '.'], { cwd: project });
      await writeFile(path.join(project, 'HEAD'), 'ref: refs/heads/master\n');
      await mkdir(path.join(project, 'info'));
      await writeFile(path.join(project, 'info', 'attributes'), '* diff=x\n');
      await writeFile(
        path.join(project, 'config'),
        '[core]\n\trepositoryformatversion = 0\n[diff "x"]\n\ttextconv = "touch PWNED; cat"\n',
      );
    },
    harmed: (_ran, { project }) => existsSync(path.join(project, 'PWNED')),
  },
  {
    name: 'git stash -m list is `git stash push`: the working tree is reset',
    command: 'git stash -m list',
    setup: async ({ project }) => {
      await repository(project);
      await writeFile(path.join(project, 'a.txt'), 'changed\n');
    },
    harmed: (_ran, { project }) => readFileSync(path.join(project, 'a.txt'), 'utf8') === 'alpha\n',
  },
  {
    name: 'git SUB --help runs the man viewer the repository config names',
    command: 'git status --help',
    setup: async ({ project }) => {
      await repository(project);
      git(project, 'config', 'man.viewer', 'x');
      git(project, 'config', 'man.x.cmd', 'touch PWNED; echo');
    },
    harmed: (_ran, { project }) => existsSync(path.join(project, 'PWNED')),
  },
  {
    name: 'git --help SUB, the same',
    command: 'git --help status',
    setup: async ({ project }) => {
      await repository(project);
      git(project, 'config', 'man.viewer', 'x');
      git(project, 'config', 'man.x.cmd', 'touch PWNED; echo');
    },
    harmed: (_ran, { project }) => existsSync(path.join(project, 'PWNED')),
  },
  {
    name: 'git describe --dirty rewrites .git/index',
    command: 'git describe --dirty --always',
    setup: async ({ project }) => {
      await repository(project);
      await utimes(path.join(project, 'a.txt'), 946_684_800, 946_684_800); // stat-dirty
      await writeFile(path.join(project, '..', 'index-before'), readFileSync(indexOf(project)));
    },
    harmed: (_ran, { project }) =>
      !readFileSync(indexOf(project)).equals(
        readFileSync(path.join(project, '..', 'index-before')),
      ),
  },
  {
    name: 'a submodule whose .git is a symlink: its filter runs on git status',
    command: 'git status',
    setup: async ({ project }) => {
      const inner = path.join(project, '..', 'inner');
      await mkdir(inner);
      await writeFile(path.join(inner, '.gitattributes'), '* filter=x\n');
      await writeFile(path.join(inner, 'f.txt'), 'data\n');
      await repository(inner);
      await repository(project);
      git(project, 'submodule', 'add', '-q', inner, 'sub');
      git(project, 'commit', '-qm', 'sub');
      // The submodule's repository moved inside the project under another name, reached by a link.
      const moved = path.join(project, 'evilgit');
      await rename(path.join(project, '.git', 'modules', 'sub'), moved);
      const config = readFileSync(path.join(moved, 'config'), 'utf8')
        .split('\n')
        .filter((line) => !line.includes('worktree'))
        .join('\n');
      await writeFile(
        path.join(moved, 'config'),
        `${config}\n[filter "x"]\n\tclean = "touch ../PWNED; cat"\n`,
      );
      await rm(path.join(project, 'sub', '.git'));
      await symlink('../evilgit', path.join(project, 'sub', '.git'));
      await utimes(path.join(project, 'sub', 'f.txt'), 946_684_800, 946_684_800); // stat-dirty
    },
    harmed: (_ran, { project }) => existsSync(path.join(project, 'PWNED')),
  },
  {
    name: 'objects/info/alternates: git reads another repository as its own',
    command: 'git cat-file --batch-all-objects --batch',
    setup: async ({ project, outside }) => {
      await repository(outside); // holds secret.txt, so its objects hold the canary
      await repository(project);
      await writeFile(
        path.join(project, '.git', 'objects', 'info', 'alternates'),
        `${path.join(outside, '.git', 'objects')}\n`,
      );
    },
    harmed: printsCanary,
  },
  {
    name: "a pack in .git/objects/pack that is a symlink to another repository's pack",
    command: 'git cat-file --batch-all-objects --batch',
    setup: async ({ project, outside }) => {
      await repository(outside);
      git(outside, 'gc', '-q');
      await repository(project);
      const packs = path.join(outside, '.git', 'objects', 'pack');
      for (const name of readdirSync(packs)) {
        await symlink(path.join(packs, name), path.join(project, '.git', 'objects', 'pack', name));
      }
    },
    harmed: printsCanary,
  },
];

function indexOf(project: string): string {
  return path.join(project, '.git', 'index');
}

describe('holes of the second attack: each asks now', () => {
  it.each(HOLES.map((hole) => [hole.name, hole] as const))('%s', async (_name, hole) => {
    const f = await fixture();
    await hole.setup?.(f);
    const verdict = await classifyCommand(hole.command, f.project);
    expect(verdict.safe, `${hole.command}: ran without asking`).toBe(false);
  });
});

describe('…and each is real: the judged command line does the harm in bash', () => {
  it.each(HOLES.map((hole) => [hole.name, hole] as const))('%s', async (_name, hole) => {
    if (hole.needsStrace && !hasStrace) return; // the programs it starts cannot be seen
    const f = await fixture();
    await hole.setup?.(f);
    const verdict = await classifyCommand(hole.command, f.project);
    expect(verdict.canonical, hole.command).toBeDefined();
    const ran = runJudged(verdict.canonical ?? '', f.project);
    expect(hole.harmed(ran, f), `${hole.command}: ${ran.output.slice(0, 300)}`).toBe(true);
  });
});

/** Holes on BSD/macOS tools, which cannot be run here: they ask, per their manual pages. */
const BSD_ROWS: readonly (readonly [why: string, command: string])[] = [
  // FreeBSD/macOS uniq parses options with "+" (no permuting): `-out` is the output operand.
  ['BSD uniq stops reading options at its first operand', 'uniq a.txt -out'],
  // macOS grep: "-S If -R is specified, all symbolic links are followed".
  ['BSD grep -S follows every symlink when recursing', 'grep -rS x .'],
];

describe('BSD variants ask', () => {
  it.each(BSD_ROWS)('%s: %s', async (_why, command) => {
    const f = await fixture();
    expect((await classifyCommand(command, f.project)).safe).toBe(false);
  });
});

describe('words tree-sitter splits where bash does not ask', () => {
  // Not a way out (what runs is what was judged), but the judged words were not bash's words, so
  // the command that ran was not the one the model wrote: `printf '<%s>' 'a'\!` ran as two words.
  it.each([
    ["printf '<%s>' 'a'\\!", '<a!>'],
    ["printf '<%s>' a\\\nb", '<ab>'],
    ['cat 0<a.txt', 'alpha\n'],
  ])('%j is one word (or a redirection) to bash: it asks', async (command, bashOutput) => {
    const f = await fixture();
    expect((await classifyCommand(command, f.project)).safe).toBe(false);
    const original = spawnSync('bash', ['-c', command], { cwd: f.project, encoding: 'utf8' });
    expect(original.stdout).toBe(bashOutput);
  });
});

describe('a widened rule for a program whose options run programs', () => {
  // `sort -o out.txt *` (widened from an asked `sort -o out.txt names.txt`) accepted any further
  // words, and sort's --compress-program runs whatever it names, as rg's --pre does.
  it('is refused, and the harm is real', async () => {
    expect(checkWidening(['sort', '-o']).ok).toBe(false);
    expect(checkWidening(['rg', 'alpha']).ok).toBe(false);
    const { project } = await fixture();
    await writeFile(path.join(project, 'evil.sh'), '#!/bin/sh\ntouch PWNED\nexec cat\n', {
      mode: 0o755,
    });
    await writeFile(
      path.join(project, 'big.txt'),
      `${Array.from({ length: 100_000 }, (_, i) => String((i * 7919) % 100_003)).join('\n')}\n`,
    );
    const verdict = await classifyCommand(
      'sort -o out.txt --compress-program=./evil.sh -S 100K big.txt',
      project,
    );
    runJudged(verdict.canonical ?? '', project);
    expect(existsSync(path.join(project, 'PWNED'))).toBe(true);
  });
});

describe('git run without asking, without a sandbox', () => {
  // The sandbox hides the home folder; without one, `git config --get http.extraHeader` (run
  // without asking: one named key) printed the token from the person's ~/.gitconfig.
  it("does not read the person's global config", async () => {
    const { project } = await fixture();
    await repository(project);
    const home = path.join(project, '..', 'home');
    await mkdir(home);
    await writeFile(
      path.join(home, '.gitconfig'),
      `[http]\n\textraHeader = AUTHORIZATION: bearer ${CANARY}\n`,
    );
    const command = 'git config --get http.extraHeader';
    const verdict = await classifyCommand(command, project);
    expect(verdict.safe).toBe(true);
    const bare = spawnSync('git', ['config', '--get', 'http.extraHeader'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      encoding: 'utf8',
    });
    expect(bare.stdout).toContain(CANARY); // the key is there to be printed
    expect(runJudged(verdict.canonical ?? '', project, home).output).not.toContain(CANARY);
  });
});

describe('a config file included from the work tree', () => {
  // The verdict on a repository's config was cached by the stamps of .git/config and
  // config.worktree alone; a file they include (here a tracked one, which write_file edits
  // without asking in auto-edit mode) could gain a filter and `git status` still ran unasked.
  it('is read anew for every command, and the harm is real', async () => {
    const { project } = await fixture();
    await writeFile(path.join(project, '.gitattributes'), '* filter=x\n');
    await writeFile(path.join(project, 'settings.gitconfig'), '[core]\n');
    await repository(project);
    git(project, 'config', 'include.path', '../settings.gitconfig');
    let before = await classifyCommand('git status', project);
    // A first git call in a process rarely loses git's output and asks (see the report); again.
    for (let i = 0; i < 3 && !before.safe; i++)
      before = await classifyCommand('git status', project);
    expect(before.reasons).toEqual([]);
    await writeFile(
      path.join(project, 'settings.gitconfig'),
      '[filter "x"]\n\tclean = "touch PWNED; cat"\n',
    );
    await utimes(path.join(project, 'a.txt'), 946_684_800, 946_684_800); // stat-dirty
    const after = await classifyCommand('git status', project);
    runJudged(after.canonical ?? '', project);
    expect(existsSync(path.join(project, 'PWNED'))).toBe(true);
    expect(after.safe).toBe(false);
  });
});

describe('a loose object that is a symlink to another repository’s object', () => {
  async function setup(): Promise<{ project: string; command: string }> {
    const { project, outside } = await fixture();
    await repository(outside);
    await repository(project);
    const hash = execFileSync('git', ['hash-object', 'secret.txt'], { cwd: outside })
      .toString()
      .trim();
    const [dir, file] = [hash.slice(0, 2), hash.slice(2)];
    await mkdir(path.join(project, '.git', 'objects', dir), { recursive: true });
    await symlink(
      path.join(outside, '.git', 'objects', dir, file),
      path.join(project, '.git', 'objects', dir, file),
    );
    return { project, command: `git cat-file -p ${hash}` };
  }

  it('asks', async () => {
    const { project, command } = await setup();
    expect((await classifyCommand(command, project)).safe).toBe(false);
  });

  it('is real: the object outside is printed', async () => {
    const { project, command } = await setup();
    const verdict = await classifyCommand(command, project);
    expect(runJudged(verdict.canonical ?? '', project).output).toContain(CANARY);
  });
});
