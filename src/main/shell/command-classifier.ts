// Decides whether a command line may run without asking, in one straight line:
//   raw text check → parse (tree-sitter-bash) → grammar (a closed set of node kinds) → words and
//   wildcards (expanded here, not by bash) → each argv judged against the safe-command data →
//   git's repositories → one verdict, with the command line that runs rebuilt from the words.
// The verdict feeds the policy (run, ask, which rule may apply) and the shell tool (what text
// runs, how much of the project the sandbox may write) alike.
import path from 'node:path';
import type { CommandPart, CommandVerdict } from '../../shared/tool-types';
import { parseBash } from './bash-parser';
import type { SyntaxNode } from './bash-parser';
import { allCommands, readScript, type SimpleCommand } from './command-grammar';
import { buildCommandLine, type BuiltItem } from './command-line-builder';
import { judgeArgv, judgeCd, judgeInput, type Place } from './command-spec-check';
import { commandTextReasons } from './command-text-check';
import { shownWord, wordExpansionReason } from './command-words';
import { gitScopeReason } from './git-toplevel';
import { expandWord, isPattern } from './glob-expand';

/** The verdict type lives in src/shared so the policy, the tools and the window share it. */
export type CommandClassification = CommandVerdict;

/** The folders `git [-C DIR]… SUBCOMMAND` runs in from each base (`-C` values build on each other). */
function gitDirs(args: readonly string[], bases: readonly string[]): string[] {
  let dirs = [...bases];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (!arg.startsWith('-')) break;
    if (arg === '-c') index++;
    else if (arg === '-C') {
      const target = args[++index] ?? '';
      dirs = dirs.map((dir) => path.resolve(dir, target));
    }
  }
  return dirs;
}

interface JudgedPart {
  readonly part: CommandPart;
  readonly built: BuiltItem;
  /** Every word became final words (no wildcard left to bash). */
  readonly complete: boolean;
}

function part(
  text: string,
  argv: readonly string[],
  reasons: string[],
  coverable: boolean,
): CommandPart {
  return { text, argv, safe: reasons.length === 0, reasons, coverable };
}

/** Judges one simple command of a script that fits the grammar; `place` moves on `cd`. */
async function judgeCommand(
  command: SimpleCommand,
  place: Place,
  folder: string,
): Promise<{ judged: JudgedPart; place: Place }> {
  const expansion: string[] = [];
  const paths: string[] = [];
  const program: string[] = [];
  const argv: string[] = [];
  command.words.forEach((word, index) => {
    const why = wordExpansionReason(word);
    const base = place.bases[0] ?? folder;
    if (why) expansion.push(why);
    else if (isPattern(word) && index === 0)
      expansion.push(`a wildcard in the program name: ${word.text}`);
    else if (isPattern(word) && place.bases.length > 1) {
      expansion.push(`a wildcard after cd cannot be expanded in advance: ${word.text}`);
    } else {
      const expanded = expandWord(word, base);
      if (expanded.kind === 'ask') expansion.push(expanded.reason);
      else {
        argv.push(...expanded.words);
        return;
      }
    }
    argv.push(word.text);
  });
  const inputs: string[] = [];
  for (const redirect of command.redirects) {
    if (redirect.kind !== 'input') continue;
    const why = wordExpansionReason(redirect.target);
    if (why) expansion.push(why);
    else if (isPattern(redirect.target)) {
      expansion.push(`a wildcard in a redirection: ${redirect.text}`);
    } else paths.push(...judgeInput(place, redirect.target.text, redirect.text));
    inputs.push(redirect.target.text);
  }
  let next = place;
  if (argv[0] === 'cd') {
    const cd = judgeCd(argv.slice(1), place);
    paths.push(...cd.reasons);
    next = cd.place;
  } else {
    const judged = judgeArgv(argv, place);
    program.push(...judged.program);
    paths.push(...judged.paths);
    if (argv[0] === 'git') {
      const scope = await gitScopeReason(folder, gitDirs(argv.slice(1), place.bases));
      if (scope) paths.push(scope);
    }
  }
  // A rule speaks for its words run in the project folder: after `cd vendor/x`, `npm test` runs
  // another package's script than the one the person allowed.
  const atRoot = place.bases.length === 1 && place.bases[0] === folder;
  const coverable = argv.length > 0 && paths.length === 0 && expansion.length === 0 && atRoot;
  return {
    judged: {
      part: part(command.text, argv, [...program, ...paths, ...expansion], coverable),
      built: { kind: 'command', command: { argv, redirects: command.redirects, inputs } },
      complete: expansion.length === 0,
    },
    place: next,
  };
}

/** Parts of a command the grammar did not accept, for the card: best-effort words, judged alone. */
function shownParts(
  root: SyntaxNode,
  start: Place,
  partReasons: ReadonlyMap<number, readonly string[]>,
): CommandPart[] {
  const place = start;
  return allCommands(root).map((node) => {
    const argv: string[] = [];
    for (const child of node.namedChildren) {
      if (!child || child.type === 'variable_assignment' || child.type.endsWith('redirect'))
        continue;
      const word = child.type === 'command_name' ? child.firstNamedChild : child;
      if (word) argv.push(shownWord(word));
    }
    const reasons = [
      ...(argv[0] === 'cd'
        ? judgeCd(argv.slice(1), place).reasons
        : Object.values(judgeArgv(argv, place)).flat()),
      ...(partReasons.get(node.startIndex) ?? []),
    ];
    return part(node.text, argv, reasons, false);
  });
}

export interface ClassifyOptions {
  /** Real paths of Tandem's own data folders: a path argument into one asks. */
  readonly untouchable?: readonly string[];
}

export async function classifyCommand(
  command: string,
  folder: string,
  options: ClassifyOptions = {},
): Promise<CommandClassification> {
  const start: Place = {
    root: folder,
    bases: [folder],
    ...(options.untouchable?.length ? { untouchable: options.untouchable } : {}),
  };
  const textReasons = commandTextReasons(command);
  const tree = await parseBash(command);
  try {
    const grammar = readScript(tree.rootNode);
    if (!grammar.fits) {
      const parts = grammar.parsed ? shownParts(tree.rootNode, start, grammar.partReasons) : [];
      const structural = [...textReasons, ...grammar.reasons];
      const reasons = [...new Set([...structural, ...parts.flatMap((p) => p.reasons)])];
      return { command, parsed: grammar.parsed, safe: false, parts, reasons, structural };
    }
    const judged: JudgedPart[] = [];
    const built: BuiltItem[] = [];
    let place: Place = start;
    for (const item of grammar.items) {
      if (item.kind === 'operator') {
        built.push(item);
        continue;
      }
      const result = await judgeCommand(item.command, place, folder);
      judged.push(result.judged);
      built.push(result.judged.built);
      place = result.place;
    }
    const parts = judged.map((j) => j.part);
    const structural = [...textReasons];
    const reasons = [...new Set([...structural, ...parts.flatMap((p) => p.reasons)])];
    if (parts.length === 0) reasons.push('the command is empty');
    const complete =
      parts.length > 0 && textReasons.length === 0 && judged.every((j) => j.complete);
    return {
      command,
      parsed: true,
      safe: reasons.length === 0,
      parts,
      reasons,
      structural,
      ...(complete ? { canonical: buildCommandLine(built) } : {}),
    };
  } finally {
    tree.delete();
  }
}
