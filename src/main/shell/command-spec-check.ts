// Judges one simple command's argv against the safe-command list (safe-commands.ts).
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { globMatches, hasWildcard } from './glob-matches';
import { COMMAND_RUNNERS, SAFE_COMMANDS } from './safe-commands';
import type { CommandSpec } from './safe-commands';

function hasUnsafeOptions(spec: CommandSpec): boolean {
  return Boolean(
    spec.unsafeShort ||
    spec.unsafeLong ||
    spec.unsafeWords ||
    spec.subcommands ||
    spec.check ||
    spec.maxPositionals !== undefined,
  );
}

function optionReason(spec: CommandSpec, arg: string, label: string): string | undefined {
  const unsafe = `uses an option that can write, run something or read past the folder: ${label} ${arg}`;
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

/** A word naming an existing symlink (or a path through one) that leads outside the project. */
export function leadsOutsideBySymlink(place: Place, word: string): boolean {
  if (word === '' || word.startsWith('~')) return false;
  return place.bases.some((base) => {
    try {
      return outsideRoot(realpathSync(place.root), realpathSync(path.resolve(base, word)));
    } catch {
      return false; // does not exist (or is not reachable): nothing to follow
    }
  });
}

/** The value of a table keyed by user words, never an inherited property (`git constructor`). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const SECRETS = 'prints environment variables, which may hold secrets';

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

function outsidePaths(place: Place, args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const candidates = pathCandidates(arg);
    if (candidates.some((c) => namesOutside(place, c) || leadsOutsideBySymlink(place, c))) {
      out.push(arg);
    }
  }
  return out;
}

/** Arguments (or their attached values) that name an existing folder from any base. */
function folderArgs(place: Place, args: readonly string[]): string[] {
  const isFolder = (file: string): boolean => {
    try {
      return statSync(file).isDirectory();
    } catch {
      return false;
    }
  };
  return args.filter((arg) =>
    pathCandidates(arg).some((candidate) =>
      place.bases.some((base) => {
        if (isFolder(path.resolve(base, candidate))) return true;
        if (!hasWildcard(candidate)) return false;
        const matches = globMatches(base, candidate);
        return !matches || matches.some(isFolder);
      }),
    ),
  );
}

/**
 * A word with a wildcard may expand to files other than itself: each file it matches now, from
 * every folder a `cd` may have reached, must stay inside the project (`cat li*` with a `link` to
 * /etc/passwd). A word that could match too much to check asks.
 */
export function judgeWildcards(words: readonly string[], place: Place): string[] {
  const reasons: string[] = [];
  for (const word of words) {
    for (const base of place.bases) {
      const matches = globMatches(base, word);
      if (!matches) {
        reasons.push(`a wildcard that cannot be checked (** or too many matches): ${word}`);
        break;
      }
      const climbs = matches.filter((match) => outsideRoot(place.root, match));
      const outside = matches.filter((match) => leadsOutsideBySymlink(place, match));
      if (climbs.length > 0) {
        const shown = climbs.map((match) => path.relative(base, match)).join(' ');
        reasons.push(`a wildcard may match a path outside the project folder: ${word} (${shown})`);
        break;
      }
      if (outside.length > 0) {
        const shown = outside.map((match) => path.relative(base, match)).join(' ');
        reasons.push(
          `a wildcard matches a link that leads outside the project folder: ${word} (${shown})`,
        );
        break;
      }
    }
  }
  return reasons;
}

/**
 * Whether a word with a wildcard may expand, from any folder a `cd` may have reached, to
 * a file named like an option (`find *` with a file `-delete`), judged on the real files.
 */
function expandsToOption(words: readonly string[], place: Place): boolean {
  return words.some((word) =>
    place.bases.some((base) => {
      const matches = globMatches(base, word);
      return !matches || matches.some((match) => path.relative(base, match).startsWith('-'));
    }),
  );
}

/** `cd DIR` within the project is safe; the places it may lead to join the list of bases. */
export function judgeCd(
  args: readonly string[],
  place: Place,
  wildcard: boolean,
): { reasons: string[]; place: Place } {
  const targets = args.filter((arg) => arg !== '-L' && arg !== '-P');
  const target = targets[0];
  if (
    targets.length !== 1 ||
    target === undefined ||
    target === '-' ||
    target.startsWith('-') ||
    wildcard
  ) {
    return {
      reasons: [`changes folder in a way that cannot be checked: cd ${args.join(' ')}`.trimEnd()],
      place,
    };
  }
  if (namesOutside(place, target) || leadsOutsideBySymlink(place, target)) {
    return { reasons: [`changes to a folder outside the project: ${target}`], place };
  }
  const bases = new Set(place.bases);
  for (const base of place.bases) bases.add(path.resolve(base, target));
  return { reasons: [], place: { root: place.root, bases: [...bases] } };
}

/** Reasons this argv needs approval; empty when it is a known read-only command used safely. */
export function judgeArgv(
  argv: readonly string[],
  place: Place,
  globWords: readonly string[],
): string[] {
  const reasons: string[] = [];
  const [name, ...args] = argv;
  if (name === undefined || name === '') return ['no command to judge'];
  const runner = own(COMMAND_RUNNERS, name);
  const spec = own(SAFE_COMMANDS, name);
  const secrets = printsEnvironment(name, args);
  if (secrets) reasons.push(`${secrets}: ${argv.join(' ')}`);
  else if (runner) reasons.push(`${runner}: ${argv.join(' ')}`);
  else if (name.includes('/')) reasons.push(`runs a program by path: ${name}`);
  else if (!spec) reasons.push(`not a known read-only command: ${name}`);
  else {
    judgeWithSpec(spec, args, name, reasons);
    const folders = spec.folderOperandsAsk ? folderArgs(place, args) : [];
    if (folders.length > 0) {
      reasons.push(
        `reads the files inside a folder, following any link there: ${name} ${folders.join(' ')}`,
      );
    }
    if (hasUnsafeOptions(spec) && expandsToOption(globWords, place)) {
      reasons.push(`a wildcard could expand to a file named like an option of ${name}`);
    }
  }
  const outside = outsidePaths(place, args);
  if (outside.length > 0) {
    reasons.push(
      spec && !runner
        ? `reads outside the project folder: ${outside.join(' ')}`
        : `names a path outside the project folder: ${outside.join(' ')}`,
    );
  }
  return reasons;
}
