// Which prefixes a person may widen a command rule to. A widened rule `W *` accepts W followed
// by ANY further words, options included (redirections, substitutions and paths outside the
// project are still never covered, see command-coverage.ts). So a widening is only as narrow as
// the further words are harmless, and that depends on the program:
//
// * Every widening keeps the program and at least one more word: `rm *` or `npm *` would cover
//   every use of the program, which is not a rule but a blank cheque.
// * Programs whose words name another command or package to run (`env`, `xargs`, `sudo`,
//   `timeout`, `npx`, `uvx`, `deno`, …), or that accept a program or code in an option anywhere
//   on the line (`find -exec`, `make --eval`, `awk`, `sed 'e'`, `tar --to-command`,
//   `rsync -e`, `go test -exec`, `cargo --config`, `ssh -o ProxyCommand`, `docker run`): no
//   widening at all. Whatever words stay fixed, the further ones could run anything.
// * Interpreters and shells (`node`, `python`, `bash`, …) stop reading their own options at the
//   script name and hand every later word to the script. So `python manage.py *` is the script's
//   business, but with an option right after the program (`python -c …`, `node -e …`,
//   `python -m …`) the further words could be any code: the word after it must be a script.
// * npm, pnpm, yarn and bun read their own options anywhere before `--`, and some of those run
//   any code: `npm test --node-options=--import=data:text/javascript,…` runs that JavaScript (tried
//   with npm 11), `--script-shell=…` picks the program that runs the script. So for them a
//   widened rule covers only further words meant for the script: plain words, and anything after
//   `--` (`npm test -- --watch`); an option before `--` still asks (`furtherWordsCovered`).
//   Subcommands that fetch and run packages (`exec`, `dlx`, `install`, `create`, …), run other
//   commands (`explore`, `edit`), change settings (`config`) or send the project elsewhere
//   (`publish`) are never widened; `run` keeps the script's name.
// * git: options such as `push --receive-pack`, `fetch --upload-pack`, `rebase --exec`,
//   `bisect run`, `submodule foreach`, `grep -O` or `difftool -x` run programs, and `push` sends
//   commits to another machine. Only subcommands whose options name no program are widened (a
//   closed list); `git push *` is refused.
// Unknown programs can be widened (the person reads "with any further words, options included"
// before storing it); the lists above are where Tandem knows better.
import { showPattern as pattern, showWords as code } from './shown-words';

export type WideningCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Longest prefix offered as a widening: longer command lines are stored exactly. */
export const MAX_WIDENED_WORDS = 16;

const OK: WideningCheck = { ok: true };

/** Programs never widened, with why (the reason completes "`x` …"). */
const EXACT_ONLY: Readonly<Record<string, string>> = {
  env: 'runs whatever command its words name',
  xargs: 'runs whatever command its words name',
  parallel: 'runs whatever commands its words name',
  sudo: 'runs whatever command its words name, as another user',
  doas: 'runs whatever command its words name, as another user',
  su: 'runs whatever command its words name, as another user',
  eval: 'runs its words as shell code',
  exec: 'runs whatever command its words name',
  command: 'runs whatever command its words name',
  builtin: 'runs whatever command its words name',
  nohup: 'runs whatever command its words name',
  setsid: 'runs whatever command its words name',
  time: 'runs whatever command its words name',
  nice: 'runs whatever command its words name',
  ionice: 'runs whatever command its words name',
  timeout: 'runs whatever command its words name',
  stdbuf: 'runs whatever command its words name',
  watch: 'runs whatever command its words name',
  chroot: 'runs whatever command its words name',
  script: 'runs whatever command its words name',
  source: 'runs a script in the shell',
  '.': 'runs a script in the shell',
  npx: 'fetches and runs whatever package its words name',
  pnpx: 'fetches and runs whatever package its words name',
  bunx: 'fetches and runs whatever package its words name',
  uvx: 'fetches and runs whatever package its words name',
  pipx: 'fetches and runs whatever package its words name',
  deno: 'runs whatever script or URL its words name, with the permissions its options grant',
  find: 'runs any program named after `-exec`, `-execdir` or `-ok`',
  make: 'runs any code given in `--eval` or a makefile named by `-f`',
  awk: 'runs its first word as a program, which can start other programs',
  gawk: 'runs its first word as a program, which can start other programs',
  mawk: 'runs its first word as a program, which can start other programs',
  nawk: 'runs its first word as a program, which can start other programs',
  sed: "runs commands given in a script's `e` command",
  tar: 'runs any program named by `--to-command`, `-I` or `--use-compress-program`',
  rsync: 'runs any program named by `-e` or `--rsh`',
  ssh: 'runs any command on the other machine, and local programs named in `-o ProxyCommand`',
  scp: 'runs any program named by `-S`',
  docker: 'runs any image with any access its options grant',
  podman: 'runs any image with any access its options grant',
  go: 'runs programs named by `-exec` or `-toolexec` and code fetched by `go run pkg@version`',
  cargo: 'runs programs named in `--config` and code fetched by `cargo install`',
  vim: 'runs any command given in `-c`',
  vi: 'runs any command given in `-c`',
  nvim: 'runs any command given in `-c`',
  emacs: 'runs any code given in `--eval`',
  less: 'runs programs named in `LESSOPEN` or typed after `!`',
  man: 'runs any program named by `-P`',
  // Tandem's own read-only list (safe-commands.ts) names these options as running programs.
  sort: 'runs any program named by `--compress-program`',
  rg: 'runs any program named by `--pre` or `--hostname-bin`',
  // Programs whose words are another command to run, as with `env` and `timeout` above.
  busybox: 'runs whatever applet or shell its words name',
  flock: 'runs whatever command its words name',
  unshare: 'runs whatever command its words name',
  nsenter: 'runs whatever command its words name',
  taskset: 'runs whatever command its words name',
  chrt: 'runs whatever command its words name',
  'systemd-run': 'runs whatever command its words name',
  runuser: 'runs whatever command its words name, as another user',
  pkexec: 'runs whatever command its words name, as another user',
  strace: 'runs whatever command its words name',
  ltrace: 'runs whatever command its words name',
  gdb: 'runs any command given in `-ex`',
  valgrind: 'runs whatever command its words name',
  screen: 'runs whatever command its words name',
  tmux: 'runs whatever command its words name',
  at: 'runs whatever command it is given, later',
  batch: 'runs whatever command it is given, later',
  crontab: 'installs commands that run later, on their own',
  socat: 'runs any program named in an `EXEC:` or `SYSTEM:` address',
};

/** Interpreters and shells: a widening must name the script right after the program. */
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'tsx',
  'ts-node',
  'ruby',
  'perl',
  'php',
  'lua',
  'Rscript',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'pwsh',
]);
const PYTHON = /^python[0-9.]*$/;

/** Package managers that read their own options anywhere before `--`. */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/**
 * Their subcommands that fetch and run packages, run a command or an editor of their own
 * (`npm explore pkg -- cmd`, `npm edit`, `yarn node`, `bun exec`), change the program's own
 * configuration, or send the project out: exact only.
 */
const PACKAGE_RUNNING = new Set([
  'exec',
  'x',
  'dlx',
  'install',
  'i',
  'add',
  'ci',
  'update',
  'up',
  'upgrade',
  'create',
  'init',
  'publish',
  'rebuild',
  'explore',
  'edit',
  'node',
  'config',
  'set',
  'env',
  'link',
  'ln',
]);
const SCRIPT_RUNNERS = new Set(['run', 'run-script', 'rum', 'urn']);

/** git subcommands whose options name no program to run and no other machine. */
const GIT_WIDENABLE = new Set([
  'status',
  'diff',
  'log',
  'show',
  'add',
  'commit',
  'branch',
  'switch',
  'checkout',
  'restore',
  'stash',
  'tag',
  'rm',
  'mv',
  'reset',
  'blame',
  'shortlog',
  'describe',
  'ls-files',
]);

/** The program's name as the tables know it: `/usr/bin/python3` → `python3`. */
function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Whether `prefix` may be stored as a widened rule (`prefix *`), and why not. */
export function checkWidening(prefix: readonly string[]): WideningCheck {
  const [first, second] = prefix;
  if (first === undefined) return { ok: false, reason: 'a rule needs at least the program' };
  const name = programName(first);
  const refuse = (why: string): WideningCheck => ({
    ok: false,
    reason: `${code([first])} ${why}, so a rule for it is stored exactly, never widened`,
  });
  if (Object.hasOwn(EXACT_ONLY, name)) return refuse(EXACT_ONLY[name] ?? '');
  if (prefix.length > MAX_WIDENED_WORDS) {
    return { ok: false, reason: `only rules of up to ${MAX_WIDENED_WORDS} words can be widened` };
  }
  if (second === undefined) {
    return {
      ok: false,
      reason: `${pattern([first])} would cover every use of ${code([first])}; keep at least one more word`,
    };
  }
  if (INTERPRETERS.has(name) || PYTHON.test(name)) return checkInterpreter(first, second);
  if (PACKAGE_MANAGERS.has(name)) return checkPackageManager(prefix, first, second);
  if (name === 'git') return checkGit(first, second);
  return OK;
}

function checkInterpreter(program: string, script: string): WideningCheck {
  if (!script.startsWith('-')) return OK;
  return {
    ok: false,
    reason:
      `${code([program])} runs code: a widened rule must name the script right after it ` +
      `(e.g. ${pattern([program, 'script'])}); after an option such as ${code([script])} ` +
      'the further words could be any code',
  };
}

function checkPackageManager(
  prefix: readonly string[],
  program: string,
  sub: string,
): WideningCheck {
  if (sub.startsWith('-')) {
    return {
      ok: false,
      reason: `${code([program, sub])} starts with one of ${code([program])}'s own options; keep the subcommand (e.g. ${pattern([program, 'test'])})`,
    };
  }
  if (PACKAGE_RUNNING.has(sub)) {
    return {
      ok: false,
      reason: `${code([program, sub])} can fetch and run packages, run other commands, change its own settings or send the project out, so a rule for it is stored exactly, never widened`,
    };
  }
  const scriptAt = SCRIPT_RUNNERS.has(sub) ? 2 : 1;
  const script = prefix[scriptAt];
  if (script === undefined || script.startsWith('-')) {
    return {
      ok: false,
      reason: `${code(prefix.slice(0, scriptAt + 1))} must keep the script's name (e.g. ${pattern([program, sub, 'build'])})`,
    };
  }
  return OK;
}

function checkGit(program: string, sub: string): WideningCheck {
  if (GIT_WIDENABLE.has(sub)) return OK;
  return {
    ok: false,
    reason: `${code([program, sub])} can run other programs through its options or reach other machines, so a rule for it is stored exactly, never widened`,
  };
}

export interface WideningChoice {
  /** The words kept; the rule is `prefix *`. */
  readonly prefix: readonly string[];
  readonly check: WideningCheck;
}

/** Every prefix of `argv` as a widening, shortest first, each with whether it may be stored. */
export function wideningChoices(argv: readonly string[]): readonly WideningChoice[] {
  const choices: WideningChoice[] = [];
  for (let length = 1; length <= Math.min(argv.length, MAX_WIDENED_WORDS); length++) {
    const prefix = argv.slice(0, length);
    choices.push({ prefix, check: checkWidening(prefix) });
  }
  return choices;
}

/**
 * Whether a widened rule for `prefix` covers these further words. For npm, pnpm, yarn and bun
 * only words meant for the script: before a `--` no option, since the program itself reads
 * those (`--node-options`, `--script-shell`); after it, anything.
 */
export function furtherWordsCovered(
  prefix: readonly string[],
  further: readonly string[],
): boolean {
  const first = prefix[0];
  if (first === undefined || !PACKAGE_MANAGERS.has(programName(first))) return true;
  if (prefix.includes('--')) return true;
  const dashes = further.indexOf('--');
  const ownPart = dashes === -1 ? further : further.slice(0, dashes);
  return ownPart.every((word) => !word.startsWith('-'));
}

function readsOwnOptions(prefix: readonly string[]): boolean {
  const first = prefix[0];
  return first !== undefined && PACKAGE_MANAGERS.has(programName(first)) && !prefix.includes('--');
}

/** How a widened rule's further words read in its description. */
export function furtherWordsPhrase(prefix: readonly string[]): string {
  return readsOwnOptions(prefix)
    ? 'with any further words for the script; options before `--` still ask'
    : 'with any further words';
}

/** Which further words a widened rule accepts, for the rule preview's sentence. */
export function furtherWordsAccepted(prefix: readonly string[]): string {
  return readsOwnOptions(prefix)
    ? 'followed by words for the script: plain words, and anything after `--`; its own options before `--` still ask'
    : 'followed by any further words, options included';
}
