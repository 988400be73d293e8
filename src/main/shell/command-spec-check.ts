// Judges one simple command's argv against the safe-command list (safe-commands.ts).
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_RUNNERS, SAFE_COMMANDS } from './safe-commands';
import type { CommandSpec } from './safe-commands';

function optionReason(spec: CommandSpec, arg: string, label: string): string | undefined {
  const unsafe = `uses an option that can write, run something or read past the folder: ${label} ${arg}`;
  if (spec.onlyOptions && !spec.onlyOptions.includes(arg)) {
    return `uses an option that is not on the list of read-only ones: ${label} ${arg}`;
  }
  if (spec.unsafeWords?.includes(arg)) return unsafe;
  if (spec.wordOptions) return undefined;
  if (arg.startsWith('--')) {
    const name = arg.slice(2).split('=')[0] ?? '';
    // GNU getopt_long and git accept any unambiguous abbreviation, even one letter (`--o`);
    // a prefix of any unsafe option counts as it (an ambiguous one fails, so asking is fine).
    const hit = name !== '' && spec.unsafeLong?.some((long) => long.startsWith(name));
    return hit ? unsafe : undefined;
  }
  const letters = arg.slice(1);
  return [...(spec.unsafeShort ?? '')].some((letter) => letters.includes(letter))
    ? unsafe
    : undefined;
}

function judgeWithSpec(
  spec: CommandSpec,
  args: readonly string[],
  label: string,
  reasons: string[],
): void {
  const positional: string[] = [];
  let afterDashes = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (afterDashes || !arg.startsWith('-') || arg === '-') {
      if (spec.subcommands && positional.length === 0) {
        const sub = own(spec.subcommands, arg);
        if (!sub) {
          reasons.push(`not a read-only subcommand: ${label} ${arg}`);
          return;
        }
        judgeWithSpec(sub, args.slice(index + 1), `${label} ${arg}`, reasons);
        return;
      }
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      afterDashes = true;
      continue;
    }
    const reason = optionReason(spec, arg, label);
    if (reason) reasons.push(reason);
    if (spec.valueOptions?.includes(arg)) index++;
  }
  if (spec.maxPositionals !== undefined && positional.length > spec.maxPositionals) {
    reasons.push(`writes to a file named by an extra argument: ${label} ${positional.join(' ')}`);
  }
  const extra = spec.check?.(args);
  if (extra) reasons.push(extra);
}

const HARMLESS_DEVICES = new Set([
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
]);

/**
 * Where relative paths are resolved: the project root, and every folder an earlier `cd` in the
 * same command line may have moved to (a `cd` can fail, so all of them stay possible).
 */
export interface Place {
  readonly root: string;
  readonly bases: readonly string[];
  /** Real paths of Tandem's own data folders: a path into one always asks. */
  readonly untouchable?: readonly string[];
}

function outsideRoot(root: string, resolved: string): boolean {
  const relative = path.relative(root, resolved);
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

/** Whether a word names something outside the project, judged lexically (no file system access). */
export function namesOutside(place: Place, word: string): boolean {
  if (HARMLESS_DEVICES.has(word)) return false;
  if (word === '~' || word.startsWith('~')) return true;
  const looksLikePath = word.startsWith('/') || word.split('/').includes('..');
  if (!looksLikePath) return false;
  return place.bases.some((base) => outsideRoot(place.root, path.resolve(base, word)));
}

/** Where the file a path names really is, through every symlink on the way. */
export type RealWhere = 'inside' | 'outside' | 'unknown' | 'tandem-data';

function realWhere(realRoot: string, file: string, untouchable: readonly string[] = []): RealWhere {
  const judge = (real: string): RealWhere => {
    if (untouchable.some((dir) => real === dir || real.startsWith(`${dir}${path.sep}`))) {
      return 'tandem-data';
    }
    return outsideRoot(realRoot, real) ? 'outside' : 'inside';
  };
  const target = path.resolve(file);
  try {
    return judge(realpathSync(target));
  } catch (error) {
    // Too long, a loop, no permission: nothing can be told, so it asks.
    if (!isMissing(error)) return 'unknown';
  }
  // It does not exist (yet): judge the deepest folder above it that does. A dangling link on the
  // way could be created through, so that asks.
  for (let missing = target; path.dirname(missing) !== missing; missing = path.dirname(missing)) {
    try {
      if (lstatSync(missing).isSymbolicLink()) return 'unknown';
    } catch {
      // not there: look further up
    }
    const parent = path.dirname(missing);
    try {
      return judge(path.join(realpathSync(parent), path.relative(parent, target)));
    } catch (error) {
      if (!isMissing(error)) return 'unknown';
    }
  }
  return 'unknown';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function hasDotDot(word: string): boolean {
  return word.split('/').includes('..');
}

/**
 * The path the kernel opens for `word` from `base`, where `..` goes up from wherever a symlink
 * before it leads (`l/../x` with `l -> .` is the parent's `x`), which `path.resolve` does not see:
 * it drops `l/..` as text. Undefined when it cannot be told (a dangling link, a path too long).
 */
export function physicalPath(base: string, word: string): string | undefined {
  let current: string;
  try {
    current = realpathSync.native(word.startsWith('/') ? '/' : base);
  } catch (error) {
    // A folder that is not there runs nothing: judge the name as it stands.
    return isMissing(error) ? path.resolve(base, word) : undefined;
  }
  const parts = word.split('/');
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] ?? '';
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = path.dirname(current); // `current` is real, so its parent is the real parent
      continue;
    }
    const next = path.join(current, part);
    try {
      current = realpathSync.native(next);
    } catch (error) {
      if (!isMissing(error)) return undefined;
      try {
        if (lstatSync(next).isSymbolicLink()) return undefined; // dangling: could be created through
      } catch {
        // not there at all: nothing below it is a link, and a `..` below it fails to open
      }
      return path.join(next, ...parts.slice(index + 1));
    }
  }
  return current;
}

/** Where `word` leads from each folder a `cd` may have reached: the worst answer wins. */
export function whereItLeads(place: Place, word: string): RealWhere {
  if (word === '') return 'inside';
  let realRoot: string;
  try {
    realRoot = realpathSync(place.root);
  } catch (error) {
    // A folder that is not there (yet) runs nothing; judge against its name.
    if (!isMissing(error)) return 'unknown';
    realRoot = path.resolve(place.root);
  }
  let worst: RealWhere = 'inside';
  for (const base of place.bases) {
    const where = realWhere(realRoot, path.resolve(base, word), place.untouchable);
    if (where === 'outside' || where === 'tandem-data') return where;
    if (where === 'unknown') worst = 'unknown';
    if (hasDotDot(word)) {
      const physical = physicalPath(base, word);
      if (physical === undefined) worst = 'unknown';
      else if (outsideRoot(realRoot, physical)) return 'outside';
    }
  }
  return worst;
}

/** The value of a table keyed by user words, never an inherited property (`git constructor`). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const SECRETS = 'prints environment variables, which may hold secrets';

/** Tandem's settings, approvals, transcripts and undo history: no command reaches them unasked. */
const TANDEM_DATA = "names Tandem's own data folder, which no command may read or change";

/** `printenv`, and `env` without a command to run, print the environment. */
function printsEnvironment(name: string, args: readonly string[]): string | undefined {
  if (name === 'printenv') return SECRETS;
  if (name !== 'env') return undefined;
  // Options with a separate value (-u NAME, -C DIR, -S TEXT) hide nothing worth telling apart.
  return args.every((arg) => arg.startsWith('-') || arg.includes('=')) ? SECRETS : undefined;
}

/**
 * The words to check as paths in one argument: itself, the value after `=` of an option, and
 * every tail of a short option cluster, since a value may be attached (`-f/etc/passwd`, `-rf../x`).
 */
function pathCandidates(arg: string): string[] {
  const attached: string[] = [];
  const eq = arg.indexOf('=');
  if (arg.startsWith('-') && eq > 0) attached.push(arg.slice(eq + 1));
  if (/^-[^-]/.test(arg)) {
    for (let at = 2; at < arg.length; at++) attached.push(arg.slice(at));
  }
  // An attached lone `/` is a delimiter (`cut -d/`, `sort -t/`); reading `/` itself reads nothing.
  return [arg, ...attached.filter((value) => value !== '/')];
}

/** Arguments (or their attached values) that name a path outside, or one that cannot be told. */
function pathReasons(place: Place, args: readonly string[], reads: boolean): string[] {
  const outside: string[] = [];
  const unknown: string[] = [];
  const data: string[] = [];
  for (const arg of args) {
    const wheres = pathCandidates(arg).map((c) => whereArgumentLeads(place, c));
    if (wheres.includes('tandem-data')) data.push(arg);
    else if (wheres.includes('outside')) outside.push(arg);
    else if (wheres.includes('unknown')) unknown.push(arg);
  }
  const reasons: string[] = [];
  if (data.length > 0) reasons.push(`${TANDEM_DATA}: ${data.join(' ')}`);
  if (outside.length > 0) {
    reasons.push(
      `${reads ? 'reads' : 'names a path'} outside the project folder: ${outside.join(' ')}`,
    );
  }
  if (unknown.length > 0) {
    reasons.push(`a path whose real location cannot be checked: ${unknown.join(' ')}`);
  }
  return reasons;
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Arguments (or their attached values) that name an existing folder from any base. */
function folderArgs(place: Place, args: readonly string[]): string[] {
  return args.filter((arg) =>
    pathCandidates(arg).some((candidate) =>
      place.bases.some((base) => isFolder(path.resolve(base, candidate))),
    ),
  );
}

/** `cd DIR` within the project is safe; the places it may lead to join the list of bases. */
export function judgeCd(
  args: readonly string[],
  place: Place,
): { reasons: string[]; place: Place } {
  const targets = args.filter((arg) => arg !== '-L' && arg !== '-P');
  const target = targets[0];
  if (targets.length !== 1 || target === undefined || target.startsWith('-')) {
    return {
      reasons: [`changes folder in a way that cannot be checked: cd ${args.join(' ')}`.trimEnd()],
      place,
    };
  }
  const where = whereArgumentLeads(place, target);
  if (where !== 'inside') {
    const why = {
      outside: `changes to a folder outside the project: ${target}`,
      unknown: `changes to a folder whose real location cannot be checked: ${target}`,
      'tandem-data': `${TANDEM_DATA}: ${target}`,
    }[where];
    return { reasons: [why], place };
  }
  const bases = new Set(place.bases);
  for (const base of place.bases) {
    bases.add(path.resolve(base, target));
    // bash's cd goes by the text of `..` (`l/..` is where it started), but where that text names
    // no folder it falls back to the kernel's answer: both are places later words start from.
    const physical = hasDotDot(target) ? physicalPath(base, target) : undefined;
    if (physical !== undefined) bases.add(physical);
  }
  return { reasons: [], place: { ...place, bases: [...bases] } };
}

/**
 * Why this argv needs approval, in two kinds: `program` reasons are about the program and its
 * words (a rule the person saves may speak for those); `paths` reasons are about where its path
 * arguments lead (no rule speaks for those).
 */
export interface ArgvJudgement {
  readonly program: string[];
  readonly paths: string[];
}

export function judgeArgv(argv: readonly string[], place: Place): ArgvJudgement {
  const program: string[] = [];
  const [name, ...args] = argv;
  if (name === undefined || name === '') return { program: ['no command to judge'], paths: [] };
  const runner = own(COMMAND_RUNNERS, name);
  const spec = own(SAFE_COMMANDS, name);
  const secrets = printsEnvironment(name, args);
  if (secrets) program.push(`${secrets}: ${argv.join(' ')}`);
  else if (runner) program.push(`${runner}: ${argv.join(' ')}`);
  else if (name.includes('/')) program.push(`runs a program by path: ${name}`);
  else if (!spec) program.push(`not a known read-only command: ${name}`);
  else judgeWithSpec(spec, args, name, program);
  const paths = pathReasons(place, args, Boolean(spec) && !runner);
  const folders = spec?.folderOperandsAsk ? folderArgs(place, args) : [];
  if (folders.length > 0) {
    paths.push(
      `reads the files inside a folder, following any link there: ${name} ${folders.join(' ')}`,
    );
  }
  return { program, paths };
}

/** Lexically first (`~`, `..`, absolute), then through the real file system. */
function whereArgumentLeads(place: Place, word: string): RealWhere {
  if (HARMLESS_DEVICES.has(word)) return 'inside';
  return namesOutside(place, word) ? 'outside' : whereItLeads(place, word);
}

/** Why bash opening `file` for a `<` redirection would read outside, if it would. */
export function judgeInput(place: Place, file: string, shown: string): string[] {
  const where = whereArgumentLeads(place, file);
  if (where === 'tandem-data') return [`${TANDEM_DATA}: ${shown}`];
  if (where === 'outside') return [`reads outside the project folder: ${shown}`];
  if (where === 'unknown') return [`a path whose real location cannot be checked: ${shown}`];
  return [];
}
