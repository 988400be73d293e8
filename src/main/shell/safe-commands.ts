// The commands that may run without asking, as data. A command line is auto-approved only when
// every simple command in it is listed here, uses none of its listed unsafe options, and passes
// the listed extra check. Everything not listed asks. Keep this list short and boring: a command
// belongs here only if, with the options allowed below, it cannot write, delete, run another
// program or reach the network. Judged by the classifier for every command alike, not here:
// paths outside the project (lexically, plus symlinks that exist), `cd` (safe within the project;
// later relative paths are judged from every folder it may have reached), redirections,
// substitutions, variables, background jobs, shell constructs. A wildcard at the start of a word
// asks for commands that have unsafe options, since it could expand to a file named `-delete`.

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
  /** Options whose value is the next argument, so it is not mistaken for a subcommand (`git -C dir`). */
  readonly valueOptions?: readonly string[];
  /** When present, the first positional argument must be one of these, judged by its own spec. */
  readonly subcommands?: Readonly<Record<string, CommandSpec>>;
  /** At most this many positional arguments (`uniq IN OUT` writes OUT). */
  readonly maxPositionals?: number;
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

/** Only addresses with p/d/q/=/l and s/// with harmless flags: sed's w, e and r commands write, run or read. */
const SED_SIMPLE =
  /^\s*(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:\s*,\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?\s*!?\s*)?[pdq=l]?\s*$/;

function isHarmlessSedCommand(command: string): boolean {
  if (SED_SIMPLE.test(command)) return true;
  const match = /^\s*(?:\d+(?:,\d+|,\$)?\s*|\$\s*)?s(.)/.exec(command);
  if (!match || match[1] === undefined || /[\s\\\n]/.test(match[1])) return false;
  const delimiter = match[1];
  let index = match[0].length;
  for (let field = 0; field < 2; field++) {
    while (index < command.length && command[index] !== delimiter) {
      index += command[index] === '\\' ? 2 : 1;
    }
    if (index >= command.length) return false;
    index++;
  }
  return /^[gipI0-9]*\s*$/.test(command.slice(index));
}

function sedScripts(args: readonly string[]): string[] {
  const scripts: string[] = [];
  let expectScript = false;
  for (const arg of args) {
    if (expectScript) {
      scripts.push(arg);
      expectScript = false;
    } else if (arg === '-e' || arg === '--expression') expectScript = true;
    else if (arg.startsWith('--expression=')) scripts.push(arg.slice('--expression='.length));
    else if (/^-[nEsrzu]*e./.test(arg)) scripts.push(arg.slice(arg.indexOf('e') + 1));
  }
  if (scripts.length === 0) {
    const first = positionals(args)[0];
    if (first !== undefined) scripts.push(first);
  }
  return scripts;
}

function checkSed(args: readonly string[]): string | undefined {
  if (args.some((arg) => arg === '-f' || arg.startsWith('--file'))) return 'runs a sed script file';
  for (const script of sedScripts(args)) {
    for (const command of script.split(/[;\n]/)) {
      if (!isHarmlessSedCommand(command)) return `sed script may write or run something: ${script}`;
    }
  }
  return undefined;
}

const GIT_READ_OUTPUT = { unsafeLong: ['output', 'ext-diff'] } as const;

const GIT: CommandSpec = {
  about: 'git: only subcommands that read the repository',
  unsafeShort: 'c',
  unsafeLong: ['exec-path', 'git-dir', 'work-tree', 'config-env', 'namespace'],
  valueOptions: ['-C', '-c'],
  subcommands: {
    status: { about: 'working tree status' },
    log: { about: 'commit history', ...GIT_READ_OUTPUT },
    show: { about: 'show objects', ...GIT_READ_OUTPUT },
    diff: { about: 'show changes', ...GIT_READ_OUTPUT },
    blame: { about: 'who changed each line', unsafeLong: ['contents'] },
    shortlog: { about: 'summarise history' },
    describe: { about: 'name a commit' },
    'rev-parse': { about: 'resolve names' },
    'rev-list': { about: 'list commits' },
    'ls-files': { about: 'list tracked files' },
    'ls-tree': { about: 'list a tree' },
    'cat-file': { about: 'show an object', unsafeLong: ['textconv', 'filters'] },
    grep: { about: 'search tracked files', unsafeShort: 'O', unsafeLong: ['open-files-in-pager'] },
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
      check: (args) => {
        const first = positionals(args)[0];
        return first === 'list' || first === 'show' ? undefined : 'changes the stash';
      },
    },
    config: {
      about: 'read configuration',
      check: (args) =>
        hasAny(args, ['--get', '--get-all', '--get-regexp', '--list', '-l'])
          ? undefined
          : 'changes git configuration',
    },
  },
};

export const SAFE_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ls: { about: 'list files' },
  cat: { about: 'print files' },
  head: { about: 'first lines' },
  tail: { about: 'last lines' },
  wc: { about: 'count lines, words, bytes' },
  grep: { about: 'search text' },
  egrep: { about: 'search text' },
  fgrep: { about: 'search text' },
  rg: { about: 'ripgrep (--pre runs a program)', unsafeLong: ['pre'] },
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
    ],
  },
  sed: {
    about: 'stream editor without -i and without w/e/r commands',
    unsafeShort: 'if',
    unsafeLong: ['in-place', 'file'],
    check: checkSed,
  },
  git: GIT,
  pwd: { about: 'print the working folder' },
  echo: { about: 'print arguments' },
  printf: { about: 'print formatted' },
  true: { about: 'succeed' },
  false: { about: 'fail' },
  date: { about: 'print the date (setting it asks)', unsafeShort: 's', unsafeLong: ['set'] },
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
  file: { about: 'guess file types', unsafeShort: 'C', unsafeLong: ['compile'] },
  stat: { about: 'file metadata' },
  du: { about: 'disk usage' },
  df: { about: 'free space' },
  tree: { about: 'list a tree (-o writes)', unsafeShort: 'o' },
  sort: {
    about: 'sort lines (-o writes)',
    unsafeShort: 'oT',
    unsafeLong: ['output', 'compress-program', 'temporary-directory'],
  },
  uniq: { about: 'drop repeated lines (a second file name is written)', maxPositionals: 1 },
  cut: { about: 'select columns' },
  tr: { about: 'translate characters' },
  nl: { about: 'number lines' },
  diff: { about: 'compare files' },
  cmp: { about: 'compare bytes' },
  comm: { about: 'compare sorted files' },
  basename: { about: 'strip directories' },
  dirname: { about: 'strip the last component' },
  realpath: { about: 'resolve a path' },
  readlink: { about: 'read a link' },
  test: { about: 'evaluate a condition' },
  '[': { about: 'evaluate a condition' },
  tac: { about: 'lines in reverse' },
  rev: { about: 'reverse lines' },
  column: { about: 'format columns' },
  fold: { about: 'wrap lines' },
  fmt: { about: 'format paragraphs' },
  paste: { about: 'merge lines' },
  join: { about: 'join lines' },
  md5sum: { about: 'checksum' },
  sha1sum: { about: 'checksum' },
  sha256sum: { about: 'checksum' },
  sha512sum: { about: 'checksum' },
  cksum: { about: 'checksum' },
  base64: { about: 'encode or decode to the output' },
  od: { about: 'dump bytes' },
  hexdump: { about: 'dump bytes' },
  xxd: { about: 'dump bytes (a second file name is written)', maxPositionals: 1 },
  strings: { about: 'printable strings' },
  jq: { about: 'query JSON' },
  seq: { about: 'print numbers' },
  printenv: { about: 'print the environment (Tandem secrets are removed from it)' },
  sleep: { about: 'wait' },
};
