// What a rule or a grant allows: a parsed command prefix (matched word by word against each
// sub-command, never as a raw substring) or a whole tool by name.
import type { CommandPart } from '../../shared/tool-types';
import { COMMAND_RUNNERS } from '../shell/safe-commands';

export type PermissionRule =
  | { readonly kind: 'command'; readonly prefix: readonly string[] }
  | { readonly kind: 'tool'; readonly tool: string };

/** Commands whose second word picks a script, so the script name belongs to the prefix too. */
const SCRIPT_RUNNERS = new Set(['npm run', 'pnpm run', 'yarn run', 'bun run']);

const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9:_-]*$/;

/**
 * Programs whose next words are code or another command (`npx tsx a.ts`, `node -e …`,
 * `xargs sh -c …`): a prefix of two words would allow any code, so the whole command is stored.
 */
const CODE_RUNNERS = new Set([
  'npx',
  'bunx',
  'uvx',
  'pipx',
  'node',
  'deno',
  'bun',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'lua',
  'Rscript',
]);
const CODE_RUNNER_SUBCOMMANDS = new Set([
  'pnpm dlx',
  'pnpm exec',
  'yarn dlx',
  'yarn exec',
  'npm exec',
]);

function runsCode(program: string, second: string | undefined): boolean {
  return (
    CODE_RUNNERS.has(program) ||
    Object.hasOwn(COMMAND_RUNNERS, program) ||
    (second !== undefined && CODE_RUNNER_SUBCOMMANDS.has(`${program} ${second}`))
  );
}

/**
 * The prefix a person's "allow" stores for one sub-command: the program and its sub-command
 * (`npm test`, `git commit`, `npm run build`); when the second word is not a plain sub-command
 * (`rm -rf build`, `python x.py`) the whole command, so a grant never widens to a bare `rm`.
 */
export function prefixFor(argv: readonly string[]): readonly string[] {
  const [program, second, third] = argv;
  if (program === undefined) return [];
  if (second === undefined) return [program];
  if (runsCode(program, second)) return [...argv];
  if (!SUBCOMMAND.test(second)) return [...argv];
  if (SCRIPT_RUNNERS.has(`${program} ${second}`)) {
    return third !== undefined && SUBCOMMAND.test(third) ? [program, second, third] : [...argv];
  }
  return [program, second];
}

/**
 * Characters that would let a matched program do more than its words say: redirections,
 * substitutions, backgrounding. A part containing them is never covered by a rule or a grant,
 * even when quoted (asking once too often is the safe side).
 */
const WIDENING = /[<>`]|\$\(|\$\{|&$|&[^&]/;

/** True when `part` is exactly a run of the program named by `rule` with the rule's leading words. */
export function ruleMatchesPart(rule: PermissionRule, part: CommandPart): boolean {
  if (rule.kind !== 'command') return false;
  if (rule.prefix.length === 0 || part.argv.length < rule.prefix.length) return false;
  if (!rule.prefix.every((word, i) => part.argv[i] === word)) return false;
  if (WIDENING.test(part.text)) return false;
  // `PATH=/tmp/x npm test` changes what `npm` means: the part must start with the program itself.
  const firstWord = part.text.trimStart().split(/\s+/)[0] ?? '';
  return firstWord.replace(/['"]/g, '') === part.argv[0];
}

export function ruleMatchesTool(rule: PermissionRule, toolName: string): boolean {
  return rule.kind === 'tool' && rule.tool === toolName;
}

export function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  if (a.kind === 'tool') return b.kind === 'tool' && a.tool === b.tool;
  return (
    b.kind === 'command' &&
    a.prefix.length === b.prefix.length &&
    a.prefix.every((word, i) => b.prefix[i] === word)
  );
}

/** How a rule is shown to the person: `npm test` for commands, `tool write_file` for tools. */
export function describeRule(rule: PermissionRule): string {
  switch (rule.kind) {
    case 'command':
      return `\`${rule.prefix.map(quoteWord).join(' ')}\``;
    case 'tool':
      return `tool \`${rule.tool}\``;
  }
}

function quoteWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
