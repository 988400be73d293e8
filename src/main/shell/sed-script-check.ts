// Judges a sed command line: parses GNU sed's options the way sed does (clusters, attached and
// separate values, abbreviated long options) to find every script, then checks each script.
// Anything it cannot parse asks.

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

/** GNU sed's long options; a unique prefix of one counts as it (`--expr`, `--e`). */
const LONG_OPTIONS: Readonly<Record<string, 'flag' | 'value' | 'script' | 'file' | 'in-place'>> = {
  quiet: 'flag',
  silent: 'flag',
  debug: 'flag',
  posix: 'flag',
  sandbox: 'flag',
  separate: 'flag',
  unbuffered: 'flag',
  'null-data': 'flag',
  'zero-terminated': 'flag',
  'regexp-extended': 'flag',
  'follow-symlinks': 'flag',
  'line-length': 'value',
  expression: 'script',
  file: 'file',
  'in-place': 'in-place',
  help: 'flag',
  version: 'flag',
};
const SHORT_FLAGS = new Set(['n', 'E', 'r', 's', 'u', 'z']);

type Parsed = { scripts: string[]; unsafe?: string; positionals: string[] };

function longKind(name: string): (typeof LONG_OPTIONS)[string] | undefined {
  if (Object.hasOwn(LONG_OPTIONS, name)) return LONG_OPTIONS[name];
  const kinds = Object.keys(LONG_OPTIONS)
    .filter((long) => long.startsWith(name))
    .map((long) => LONG_OPTIONS[long]);
  if (kinds.length === 1) return kinds[0];
  // An ambiguous prefix fails in sed; it passes only when every candidate is a harmless flag.
  return kinds.length > 0 && kinds.every((kind) => kind === 'flag') ? 'flag' : undefined;
}

function parseSed(args: readonly string[]): Parsed {
  const out: Parsed = { scripts: [], positionals: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') {
      out.positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const kind = name === '' ? undefined : longKind(name);
      const value = eq < 0 ? undefined : arg.slice(eq + 1);
      switch (kind) {
        case undefined:
          return { ...out, unsafe: `sed option not understood: ${arg}` };
        case 'file':
          return { ...out, unsafe: 'runs a sed script file' };
        case 'in-place':
          return { ...out, unsafe: `edits files in place: sed ${arg}` };
        case 'flag':
          break;
        case 'value':
          if (value === undefined) index++;
          break;
        case 'script':
          if (value === undefined) {
            index++;
            if (index >= args.length) return { ...out, unsafe: `sed ${arg} without a script` };
          }
          out.scripts.push(value ?? args[index] ?? '');
          break;
      }
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] ?? '';
      if (SHORT_FLAGS.has(letter)) continue;
      if (letter === 'f') return { ...out, unsafe: 'runs a sed script file' };
      if (letter === 'i') return { ...out, unsafe: `edits files in place: sed ${arg}` };
      if (letter !== 'e' && letter !== 'l') {
        return { ...out, unsafe: `sed option not understood: ${arg}` };
      }
      // The rest of the cluster, or else the next argument, is the value.
      let value = arg.slice(at + 1);
      if (value === '') {
        index++;
        if (index >= args.length) return { ...out, unsafe: `sed ${arg} without a value` };
        value = args[index] ?? '';
      }
      if (letter === 'e') out.scripts.push(value);
      break;
    }
  }
  return out;
}

/** Why this sed command line may write, run or read something unchecked, if it may. */
export function checkSed(args: readonly string[]): string | undefined {
  const parsed = parseSed(args);
  if (parsed.unsafe) return parsed.unsafe;
  const scripts = parsed.scripts;
  if (scripts.length === 0) {
    const first = parsed.positionals[0];
    if (first === undefined) return 'sed without a script';
    scripts.push(first);
  }
  for (const script of scripts) {
    for (const command of script.split(/[;\n]/)) {
      if (!isHarmlessSedCommand(command)) return `sed script may write or run something: ${script}`;
    }
  }
  return undefined;
}
