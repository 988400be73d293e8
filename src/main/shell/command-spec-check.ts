// Judges one simple command's argv against the safe-command list (safe-commands.ts).
import { realpathSync } from 'node:fs';
import path from 'node:path';
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
  const unsafe = `uses an option that can write or run something: ${label} ${arg}`;
  if (spec.unsafeWords?.includes(arg)) return unsafe;
  if (spec.wordOptions) return undefined;
  if (arg.startsWith('--')) {
    const name = arg.slice(2).split('=')[0] ?? '';
    // GNU tools accept any unambiguous abbreviation of a long option.
    const hit = spec.unsafeLong?.some(
      (long) => long === name || (name.length >= 3 && long.startsWith(name)),
    );
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
        const sub = spec.subcommands[arg];
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

function outsidePaths(place: Place, args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const candidates = [arg];
    const eq = arg.indexOf('=');
    if (arg.startsWith('-') && eq > 0) candidates.push(arg.slice(eq + 1));
    if (candidates.some((c) => namesOutside(place, c) || leadsOutsideBySymlink(place, c))) {
      out.push(arg);
    }
  }
  return out;
}

/** `cd DIR` within the project is safe; the places it may lead to join the list of bases. */
export function judgeCd(
  args: readonly string[],
  place: Place,
  leadingGlob: boolean,
): { reasons: string[]; place: Place } {
  const targets = args.filter((arg) => arg !== '-L' && arg !== '-P');
  const target = targets[0];
  if (
    targets.length !== 1 ||
    target === undefined ||
    target === '-' ||
    target.startsWith('-') ||
    leadingGlob
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
export function judgeArgv(argv: readonly string[], place: Place, leadingGlob: boolean): string[] {
  const reasons: string[] = [];
  const [name, ...args] = argv;
  if (name === undefined || name === '') return ['no command to judge'];
  const runner = COMMAND_RUNNERS[name];
  const spec = Object.hasOwn(SAFE_COMMANDS, name) ? SAFE_COMMANDS[name] : undefined;
  if (runner) reasons.push(`${runner}: ${argv.join(' ')}`);
  else if (name.includes('/')) reasons.push(`runs a program by path: ${name}`);
  else if (!spec) reasons.push(`not a known read-only command: ${name}`);
  else {
    judgeWithSpec(spec, args, name, reasons);
    if (leadingGlob && hasUnsafeOptions(spec)) {
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
