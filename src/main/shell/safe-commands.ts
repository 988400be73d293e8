// The commands that may run without asking, as data. A command line is auto-approved only when
// every simple command in it is listed here, uses none of its listed unsafe options, and passes
// the listed extra check. Everything not listed asks. Keep this list short and boring: a command
// belongs here only if, with the options allowed below, it cannot write, delete, run another
// program or reach the network. Judged by the classifier for every command alike, not here:
// paths outside the project (lexically, plus symlinks that exist), `cd` (safe within the project;
// later relative paths are judged from every folder it may have reached), redirections,
// substitutions, variables, background jobs, shell constructs, wildcards (expanded against the
// real folder: a match that is a link leading outside asks, and so does a match named like an
// option, such as `-delete`, for commands that have unsafe options). Options that follow symlinks
// while recursing (grep -R, find -L, rg -L, du -L, tree -l, diff -r, ls -L) always ask: a link
// inside the folder could lead anywhere, and looking for one on every command costs a full walk.

import { checkTestArgs } from './condition-check';
import { checkSed } from './sed-script-check';

export interface CommandSpec {
  /** What it does, for the person reading this list. */
  readonly about: string;
  /** Short option letters that write, run programs or change state, found inside clusters too (`-ni` has `i`). */
  readonly unsafeShort?: string;
  /** Long options (without `--`) that do; abbreviations of them (`--in-pl`) are caught too. */
  readonly unsafeLong?: readonly string[];
  /** Whole arguments that do, for commands whose options are single-dash words (`find -delete`). */
  readonly unsafeWords?: readonly string[];
  /** The options are single-dash words (`-name`), not letter clusters. */
  readonly wordOptions?: boolean;
  /** When present, the only options allowed (exact words); any other asks (git's own options). */
  readonly onlyOptions?: readonly string[];
  /** Options whose value is the next argument, so it is not mistaken for a subcommand (`git -C dir`). */
  readonly valueOptions?: readonly string[];
  /** When present, the first positional argument must be one of these, judged by its own spec. */
  readonly subcommands?: Readonly<Record<string, CommandSpec>>;
  /** At most this many positional arguments (`uniq IN OUT` writes OUT). */
  readonly maxPositionals?: number;
  /** A folder operand makes it read the files inside, following any symlink there (`diff a b`). */
  readonly folderOperandsAsk?: boolean;
  /** A further look at the arguments (after the subcommand); returns why it is unsafe, if it is. */
  readonly check?: (args: readonly string[]) => string | undefined;
}

/** Commands that run another command, so they are never auto-approved, with why. */
export const COMMAND_RUNNERS: Readonly<Record<string, string>> = {
  sudo: 'runs a command as another user',
  doas: 'runs a command as another user',
  su: 'runs a command as another user',
  env: 'runs another command with a changed environment',
  xargs: 'runs another command for each input',
  parallel: 'runs other commands',
  eval: 'evaluates text as a command',
  exec: 'replaces the shell with another command',
  command: 'runs another command',
  builtin: 'runs another command',
  nohup: 'runs another command that outlives the call',
  setsid: 'runs another command in a new session',
  time: 'runs another command',
  nice: 'runs another command',
  ionice: 'runs another command',
  timeout: 'runs another command',
  stdbuf: 'runs another command',
  watch: 'runs another command repeatedly',
  chroot: 'runs another command',
  script: 'runs another command',
  source: 'runs a script in the shell',
  '.': 'runs a script in the shell',
  bash: 'runs a shell',
  sh: 'runs a shell',
  zsh: 'runs a shell',
  dash: 'runs a shell',
  ksh: 'runs a shell',
  fish: 'runs a shell',
};

function positionals(args: readonly string[]): string[] {
  const out: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (!afterDashes && arg === '--') afterDashes = true;
    else if (afterDashes || !arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

function hasAny(args: readonly string[], options: readonly string[]): boolean {
  return args.some((arg) => options.includes(arg));
}

/** `git branch` and `git tag` list unless given a name without `--list`. */
function listOnly(what: string) {
  return (args: readonly string[]): string | undefined =>
    positionals(args).length > 0 && !hasAny(args, ['-l', '--list'])
      ? `names a ${what} without --list: ${positionals(args).join(' ')}`
      : undefined;
}

/**
 * Options git's revision and diff machinery accepts in every subcommand that walks history or
 * shows objects: --output writes a file, --ext-diff and --textconv run configured programs.
 */
const GIT_READ_OUTPUT = {
  unsafeLong: ['output', 'ext-diff', 'textconv', 'submodule', 'recurse-submodules'],
} as const;

/** Scopes and sources past the repository's own config (tokens live in ~/.gitconfig too). */
const CONFIG_ELSEWHERE = ['global', 'system', 'file', 'blob', 'worktree', 'includes'];

function configElsewhere(arg: string): boolean {
  if (arg === '-f' || arg.startsWith('-f')) return true;
  if (!arg.startsWith('--')) return false;
  const name = arg.slice(2).split('=')[0] ?? '';
  // git accepts any unambiguous abbreviation (`--glob`).
  return name !== '' && CONFIG_ELSEWHERE.some((long) => long.startsWith(name));
}

/**
 * `git config` reads only: `--get NAME` / `--get-all NAME` (one named key), or a listing
 * (`--list`, `--get-regexp`, and git 2.46's `get` / `list`) of the repository's own `--local`
 * file, since a listing of every scope shows url.*.insteadOf and http.extraHeader credentials.
 */
function checkGitConfig(args: readonly string[]): string | undefined {
  const elsewhere = args.find(configElsewhere);
  if (elsewhere) return `reads git configuration outside the repository: git config ${elsewhere}`;
  const local = args.includes('--local');
  const [sub] = positionals(args);
  const listing =
    hasAny(args, ['--list', '-l', '--get-regexp']) ||
    sub === 'list' ||
    (sub === 'get' && hasAny(args, ['--regexp', '--all']));
  if (listing) return local ? undefined : 'lists git configuration of every scope (use --local)';
  if (hasAny(args, ['--get', '--get-all']) || sub === 'get') return undefined;
  return 'changes git configuration';
}

/**
 * git's own options (before the subcommand) that may run without asking; any other asks. Among
 * those that do: `--bare` makes the project folder itself the repository, so a tracked `config`
 * there (with `info/attributes`) names textconv programs; `--attr-source`, `--git-dir` and
 * `--namespace` take the next word as their value, so the subcommand judged is not the one run;
 * `--help` and `-c` are below.
 */
const GIT_OWN_OPTIONS = [
  '-C',
  '-P',
  '--no-pager',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--version',
];

/**
 * `git SUB --help` (and `git --help SUB`) runs `git help SUB`: man, a pager, or the viewer or
 * browser program the repository's config names (`man.<tool>.cmd`, `browser.<tool>.cmd`).
 */
function gitSubcommands(
  specs: Readonly<Record<string, CommandSpec>>,
): Readonly<Record<string, CommandSpec>> {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { ...spec, unsafeLong: [...(spec.unsafeLong ?? []), 'help'] },
    ]),
  );
}

const GIT: CommandSpec = {
  about: 'git: only subcommands that read the repository',
  unsafeShort: 'c',
  unsafeLong: ['exec-path', 'git-dir', 'work-tree', 'config-env', 'namespace', 'super-prefix'],
  onlyOptions: GIT_OWN_OPTIONS,
  valueOptions: ['-C', '-c'],
  subcommands: gitSubcommands({
    status: { about: 'working tree status' },
    log: { about: 'commit history', ...GIT_READ_OUTPUT },
    show: { about: 'show objects', ...GIT_READ_OUTPUT },
    diff: { about: 'show changes', ...GIT_READ_OUTPUT },
    blame: {
      about: 'who changed each line',
      unsafeLong: ['contents', 'output', 'ext-diff', 'textconv'],
    },
    shortlog: { about: 'summarise history', ...GIT_READ_OUTPUT },
    // --dirty refreshes and rewrites .git/index, whatever GIT_OPTIONAL_LOCKS says.
    describe: { about: 'name a commit', unsafeLong: ['dirty'] },
    'rev-parse': { about: 'resolve names' },
    'rev-list': { about: 'list commits', ...GIT_READ_OUTPUT },
    'ls-files': { about: 'list tracked files', unsafeLong: ['recurse-submodules'] },
    'ls-tree': { about: 'list a tree' },
    'cat-file': { about: 'show an object', unsafeLong: ['textconv', 'filters'] },
    grep: {
      about: 'search tracked files',
      unsafeShort: 'O',
      unsafeLong: ['open-files-in-pager', 'ext-grep', 'textconv', 'recurse-submodules'],
    },
    branch: {
      about: 'list branches (creating, deleting, renaming asks)',
      unsafeShort: 'dDmMcCfu',
      unsafeLong: [
        'delete',
        'move',
        'copy',
        'force',
        'set-upstream-to',
        'unset-upstream',
        'edit-description',
        'track',
        'no-track',
        'create-reflog',
      ],
      check: listOnly('branch'),
    },
    tag: {
      about: 'list tags (creating or deleting asks)',
      unsafeShort: 'adsfumFe',
      unsafeLong: ['delete', 'annotate', 'sign', 'force', 'message', 'file', 'local-user', 'edit'],
      check: listOnly('tag'),
    },
    remote: {
      about: 'list remotes (get-url only; show contacts the network)',
      check: (args) => {
        const first = positionals(args)[0];
        return first === undefined || first === 'get-url'
          ? undefined
          : `changes or contacts remotes: git remote ${first}`;
      },
    },
    stash: {
      about: 'list or show stashes',
      ...GIT_READ_OUTPUT,
      // git takes the subcommand from the first word only: `git stash -m list` is `stash push`.
      check: (args) => (args[0] === 'list' || args[0] === 'show' ? undefined : 'changes the stash'),
    },
    config: { about: 'read the repository configuration', check: checkGitConfig },
  }),
};

/** `-c LIST` reads file names from LIST, which the path check cannot see. */
const CHECKSUM: CommandSpec = { about: 'checksum', unsafeShort: 'c', unsafeLong: ['check'] };

function checkJq(args: readonly string[]): string | undefined {
  // jq lets space and comments stand between `$` and a name (`$ ENV`, `$#c⏎ENV`): any word ENV
  // or env anywhere in any argument asks, whatever precedes it.
  if (args.some((arg) => /\b(?:env|ENV)\b/.test(arg))) {
    return 'a jq program that reads the environment';
  }
  // Module and data imports are found along a search path the path check cannot see.
  return args.some(
    (arg) => /\b(?:import|include|modulemeta)\b/.test(arg) || /^-L|^--library-path/.test(arg),
  )
    ? 'a jq program that loads modules or data files'
    : undefined;
}

/** xxd's options that take the next argument as their value (written this way, exactly). */
const UNIQ_VALUE_OPTIONS = ['-f', '-s', '-w'];
const XXD_VALUE_OPTIONS = [
  '-c',
  '-g',
  '-l',
  '-o',
  '-s',
  '-n',
  '-cols',
  '-groupsize',
  '-len',
  '-name',
];

/**
 * xxd, and BSD uniq (getopt_long with "+"), read options only up to their first operand; every
 * later word is an operand, a dash or not (`xxd a.txt -out` writes the file `-out`), and the
 * second operand is written. Options whose value is the next word are skipped with it.
 */
function secondOperandWritten(program: string, valueOptions: readonly string[]) {
  return (args: readonly string[]): string | undefined => {
    let index = 0;
    for (; index < args.length; index++) {
      const arg = args[index] ?? '';
      if (arg === '--') {
        index++;
        break;
      }
      if (!arg.startsWith('-') || arg === '-') break;
      if (valueOptions.includes(arg)) index++;
    }
    return args.length - index > 1
      ? `writes to a file named by its second operand: ${program} ${args.slice(index).join(' ')}`
      : undefined;
  };
}

/** date's options whose value is the next argument (an attached value ends the cluster). */
const DATE_VALUE_LETTERS = 'dfr';
const DATE_VALUE_LONG = ['date', 'file', 'reference'];

/** `date MMDDhhmm[[CC]YY]` sets the clock: the only operand allowed is a `+FORMAT`. */
function checkDate(args: readonly string[]): string | undefined {
  let afterDashes = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (!afterDashes && arg === '--') afterDashes = true;
    else if (!afterDashes && arg.startsWith('--')) {
      const name = arg.slice(2);
      // An abbreviation (`--da`) takes the value too; `--date=x` carries its own.
      if (name !== '' && !name.includes('=') && DATE_VALUE_LONG.some((l) => l.startsWith(name)))
        index++;
    } else if (!afterDashes && arg.startsWith('-') && arg !== '-') {
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at] ?? '';
        if (letter === 'I') break; // -I takes an optional attached value: the rest of the cluster
        if (DATE_VALUE_LETTERS.includes(letter)) {
          if (at === arg.length - 1) index++;
          break;
        }
      }
    } else if (!arg.startsWith('+')) {
      return `an operand other than +FORMAT sets the clock: date ${args.join(' ')}`;
    }
  }
  return undefined;
}

export const SAFE_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ls: { about: 'list files (-L follows symlinks)', unsafeShort: 'L', unsafeLong: ['dereference'] },
  cat: { about: 'print files' },
  head: { about: 'first lines' },
  tail: { about: 'last lines' },
  wc: { about: 'count lines, words, bytes', unsafeLong: ['files0-from'] },
  // Not egrep and fgrep: they are scripts that start grep (use grep -E and grep -F).
  grep: {
    about: 'search text (-R, and BSD -S, follow symlinks)',
    unsafeShort: 'RS',
    unsafeLong: ['dereference-recursive'],
  },
  rg: {
    about: 'ripgrep (--pre, --hostname-bin and -z run programs, -L follows symlinks)',
    unsafeShort: 'Lz',
    unsafeLong: ['pre', 'pre-glob', 'hostname-bin', 'follow', 'search-zip'],
  },
  find: {
    about: 'find files (-exec, -delete, -fprint and -ok ask)',
    wordOptions: true,
    unsafeWords: [
      '-exec',
      '-execdir',
      '-ok',
      '-okdir',
      '-delete',
      '-fprint',
      '-fprint0',
      '-fprintf',
      '-fls',
      '-L',
      '-follow',
      '-files0-from',
    ],
  },
  sed: {
    about: 'stream editor without -i, -f and without w/e/r commands',
    unsafeLong: ['in-place', 'file'],
    check: checkSed,
  },
  git: GIT,
  pwd: { about: 'print the working folder' },
  echo: { about: 'print arguments' },
  printf: { about: 'print formatted (-v assigns a variable)', unsafeShort: 'v' },
  true: { about: 'succeed' },
  false: { about: 'fail' },
  date: {
    about: 'print the date (setting it, also by a MMDDhhmm operand, asks)',
    unsafeShort: 's',
    unsafeLong: ['set'],
    check: checkDate,
  },
  whoami: { about: 'current user' },
  id: { about: 'user ids' },
  uname: { about: 'system name' },
  hostname: {
    about: 'print the host name (setting it asks)',
    maxPositionals: 0,
    unsafeShort: 'bF',
    unsafeLong: ['boot', 'file'],
  },
  which: { about: 'locate a program' },
  type: { about: 'describe a command' },
  file: {
    about:
      'guess file types (-f reads file names from a file; -z and -Z start decompressors; -m takes a colon-separated list of files)',
    unsafeShort: 'CfzZm',
    unsafeLong: ['compile', 'files-from', 'uncompress', 'uncompress-noreport', 'magic-file'],
  },
  stat: { about: 'file metadata' },
  du: {
    about: 'disk usage (-L follows symlinks)',
    unsafeShort: 'L',
    unsafeLong: ['dereference', 'files0-from'],
  },
  df: { about: 'free space' },
  tree: {
    about: 'list a tree (-o and -R write, -l follows symlinks)',
    unsafeShort: 'oRl',
  },
  sort: {
    about: 'sort lines (-o writes)',
    unsafeShort: 'oT',
    unsafeLong: ['output', 'compress-program', 'temporary-directory', 'files0-from'],
  },
  uniq: {
    about: 'drop repeated lines (a second file name is written)',
    valueOptions: UNIQ_VALUE_OPTIONS,
    maxPositionals: 1,
    check: secondOperandWritten('uniq', UNIQ_VALUE_OPTIONS),
  },
  cut: { about: 'select columns' },
  tr: { about: 'translate characters' },
  nl: { about: 'number lines' },
  diff: {
    about: 'compare files (-r, or a folder operand, follows symlinks inside folders)',
    unsafeShort: 'r',
    unsafeLong: ['recursive'],
    folderOperandsAsk: true,
  },
  cmp: { about: 'compare bytes' },
  comm: { about: 'compare sorted files' },
  basename: { about: 'strip directories' },
  dirname: { about: 'strip the last component' },
  realpath: { about: 'resolve a path' },
  readlink: { about: 'read a link' },
  test: { about: 'evaluate a condition', check: checkTestArgs },
  '[': { about: 'evaluate a condition', check: checkTestArgs },
  tac: { about: 'lines in reverse' },
  rev: { about: 'reverse lines' },
  column: { about: 'format columns' },
  fold: { about: 'wrap lines' },
  fmt: { about: 'format paragraphs' },
  paste: { about: 'merge lines' },
  join: { about: 'join lines' },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha512sum: CHECKSUM,
  cksum: CHECKSUM,
  base64: {
    about: 'encode or decode to the output (-o / --output write a file on some systems)',
    unsafeShort: 'o',
    unsafeLong: ['output'],
  },
  od: { about: 'dump bytes' },
  hexdump: { about: 'dump bytes' },
  xxd: {
    about: 'dump bytes (a second file name is written)',
    valueOptions: XXD_VALUE_OPTIONS,
    maxPositionals: 1,
    check: secondOperandWritten('xxd', XXD_VALUE_OPTIONS),
  },
  strings: {
    about: 'printable strings (@FILE reads more arguments from FILE)',
    check: (args) =>
      args.some((arg) => arg.startsWith('@'))
        ? `reads its arguments from a file (@FILE), unseen: strings ${args.join(' ')}`
        : undefined,
  },
  jq: {
    about: 'query JSON (env and $ENV print the environment; -f runs a program file unseen)',
    unsafeShort: 'f',
    unsafeLong: ['from-file'],
    check: checkJq,
  },
  seq: { about: 'print numbers' },
  sleep: { about: 'wait' },
};
