// The one grammar a command line must fit to run without asking: a closed set of tree-sitter-bash
// node kinds. Lists (`&&` `||` `;` newline), pipelines (`|` `|&`), simple commands made of plain
// words, single quotes, double quotes without expansions, numbers and their concatenations, and
// the redirections that cannot write (`N>&M`, `>&-`, `> /dev/null`, `< file`). Everything else —
// variables, substitutions, arithmetic, here-documents, loops, conditions, functions, groups,
// subshells, background jobs, special quoting, parse errors — is a structural reason to ask.
// What fits becomes a flat script of simple commands and operators, from which the command line
// that runs is rebuilt (command-line-builder.ts): what runs is what was judged.
import type { SyntaxNode } from './bash-parser';
import { literalWord, type WordValue } from './command-words';

export type Operator = '&&' | '||' | ';' | '|' | '|&';

export type Redirect =
  /** `N>&M`, `N<&M`, `>&-`: moves or closes a descriptor. */
  | { readonly kind: 'duplicate'; readonly text: string }
  /** Output to /dev/null (`>`, `>>`, `2>`, `&>`, `&>>`). */
  | { readonly kind: 'discard'; readonly fd: string; readonly operator: string }
  /** `< file` (or `N< file`): the shell opens the file for reading. */
  | {
      readonly kind: 'input';
      readonly fd: string;
      readonly target: WordValue;
      readonly text: string;
    };

export interface SimpleCommand {
  /** The command's own text, for the card, and where it starts in the command line. */
  readonly text: string;
  readonly start: number;
  readonly words: readonly WordValue[];
  readonly redirects: Redirect[];
}

export type ScriptItem =
  | { readonly kind: 'command'; readonly command: SimpleCommand }
  | { readonly kind: 'operator'; readonly operator: Operator };

export type GrammarResult =
  | { readonly fits: true; readonly items: readonly ScriptItem[] }
  /** `parsed` is false when the parser itself found an error. */
  | {
      readonly fits: false;
      readonly parsed: boolean;
      readonly reasons: readonly string[];
      /** Reasons that belong to one command (a redirection that writes), by where it starts. */
      readonly partReasons: ReadonlyMap<number, readonly string[]>;
    };

const CONSTRUCTS: Readonly<Record<string, string>> = {
  heredoc_redirect: 'uses a here-document',
  herestring_redirect: 'uses a here-string (<<<)',
  command_substitution: 'runs a nested command',
  process_substitution: 'runs a nested command',
  simple_expansion: 'expands a variable',
  expansion: 'expands a variable',
  arithmetic_expansion: 'expands arithmetic',
  ansi_c_string: 'uses special quoting',
  translated_string: 'uses special quoting',
  variable_assignment: 'sets a variable',
  variable_assignments: 'sets variables',
  declaration_command: 'declares variables',
  unset_command: 'unsets variables',
  subshell: 'runs a subshell ( … )',
  compound_statement: 'uses a group { … } or arithmetic (( … ))',
  if_statement: 'uses a shell construct (if)',
  while_statement: 'uses a shell construct (while/until)',
  for_statement: 'uses a shell construct (for)',
  c_style_for_statement: 'uses a shell construct (for)',
  case_statement: 'uses a shell construct (case)',
  function_definition: 'defines a function',
  test_command: 'uses a [ ] or [[ ]] test (`test …` runs without asking)',
  negated_command: 'negates a command (!)',
  brace_expression: 'expands braces',
  ERROR: 'could not be parsed',
};

/** Unnamed tokens a command line may hold only as part of an allowed node. */
const TOKENS: Readonly<Record<string, string>> = {
  '&': 'runs in the background',
  $: 'uses $ in a way that is not run without asking',
};

const OPERATORS: ReadonlySet<string> = new Set(['&&', '||', ';', '|', '|&']);
const STATEMENTS: ReadonlySet<string> = new Set([
  'command',
  'list',
  'pipeline',
  'redirected_statement',
]);
const DISCARD_OPERATORS: ReadonlySet<string> = new Set(['>', '>>', '&>', '&>>', '>|']);

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** The innermost construct that keeps `node` from fitting: `$HOME` inside `"a $HOME"`. */
function culprit(node: SyntaxNode): SyntaxNode {
  if (CONSTRUCTS[node.type] || TOKENS[node.type] !== undefined) return node;
  for (const child of node.children) {
    if (!child) continue;
    const inner = culprit(child);
    if (inner !== child || CONSTRUCTS[child.type] || TOKENS[child.type] !== undefined) return inner;
  }
  return node;
}

function describe(given: SyntaxNode): string {
  if (given.isMissing) return `could not be parsed: a missing ${given.type}`;
  const node = culprit(given);
  const what = CONSTRUCTS[node.type] ?? TOKENS[node.type];
  const text = clip(node.type === '$' || node.type === '&' ? given.text : node.text);
  if (what) return `${what}: ${text}`;
  return `uses shell syntax that is not run without asking (${node.isNamed ? node.type : text}): ${text}`;
}

/** What may stand between the parts of a node: blanks, newlines and line continuations. */
const GAP = /^(?:[ \t\n]|\\\n)*$/;

class Reader {
  readonly items: ScriptItem[] = [];
  readonly reasons: string[] = [];
  readonly partReasons = new Map<number, string[]>();

  /**
   * tree-sitter skips `\<space>` and `\<tab>` as if they were blanks, where bash keeps them in a
   * word; any text between the parts of a node other than blanks asks.
   */
  private gaps(node: SyntaxNode): void {
    let at = node.startIndex;
    for (const child of [...node.children, null]) {
      const end = child ? child.startIndex : node.endIndex;
      const gap = node.text.slice(at - node.startIndex, end - node.startIndex);
      if (!GAP.test(gap)) {
        this.reasons.push(
          `text the parser skipped, which bash may read differently: ${clip(JSON.stringify(gap))}`,
        );
        return;
      }
      if (child) at = child.endIndex;
    }
  }

  private refuse(node: SyntaxNode): void {
    const reason = describe(node);
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
  }

  private operator(operator: Operator): void {
    this.items.push({ kind: 'operator', operator });
  }

  /** `program`: statements separated by `;` or newlines (a newline becomes `;`). */
  program(node: SyntaxNode): void {
    this.gaps(node);
    let pending = false;
    for (const child of node.children) {
      if (!child || child.type === 'comment') continue;
      if (!child.isNamed && child.type === ';') {
        if (pending) this.operator(';');
        pending = false;
      } else if (child.isNamed && STATEMENTS.has(child.type)) {
        if (pending) this.operator(';');
        this.statement(child);
        pending = true;
      } else this.refuse(child);
    }
  }

  private statement(node: SyntaxNode): void {
    this.gaps(node);
    switch (node.type) {
      case 'command':
        this.command(node);
        return;
      case 'list':
      case 'pipeline':
        for (const child of node.children) {
          if (!child) continue;
          if (child.isNamed && STATEMENTS.has(child.type)) this.statement(child);
          else if (!child.isNamed && OPERATORS.has(child.type))
            this.operator(child.type as Operator);
          else this.refuse(child);
        }
        return;
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        if (!body || !STATEMENTS.has(body.type)) {
          this.refuse(body ?? node);
          return;
        }
        this.statement(body);
        // bash binds a redirection after `a && b` or `a | b` to the last command (`b`).
        const last = [...this.items].reverse().find((item) => item.kind === 'command');
        for (const child of node.children) {
          if (!child || child.id === body.id) continue;
          if (child.type !== 'file_redirect') this.refuse(child);
          else if (last?.kind === 'command') {
            this.digitsBefore(node, child);
            this.redirect(child, last.command);
          }
        }
        return;
      }
      default:
        this.refuse(node);
    }
  }

  private command(node: SyntaxNode): void {
    this.gaps(node);
    const command: SimpleCommand = {
      text: node.text,
      start: node.startIndex,
      words: [],
      redirects: [],
    };
    const words: WordValue[] = [];
    let previous: SyntaxNode | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (previous && this.runTogether(node, previous, child)) {
        const from = previous.startIndex - node.startIndex;
        this.reasons.push(
          `words run together that bash reads differently: ${clip(node.text.slice(from, child.endIndex - node.startIndex))}`,
        );
      }
      previous = child;
      if (child.type === 'command_name') {
        const name = child.namedChildren[0];
        const value = name && child.namedChildCount === 1 ? literalWord(name) : undefined;
        if (value) words.push(value);
        else this.refuse(name ?? child);
      } else if (child.type === 'file_redirect') {
        this.digitsBefore(node, child);
        this.redirect(child, command);
      } else {
        const value = child.isNamed ? literalWord(child) : undefined;
        if (value) words.push(value);
        else this.refuse(child);
      }
    }
    this.items.push({ kind: 'command', command: { ...command, words } });
  }

  /**
   * tree-sitter can end a word where bash does not: `'a'\!` and `a\⏎b` are one word to bash.
   * Two words with no blank between them would run as tree-sitter split them, so they ask.
   */
  private runTogether(node: SyntaxNode, previous: SyntaxNode, child: SyntaxNode): boolean {
    if (previous.type === 'file_redirect' || child.type === 'file_redirect') return false;
    const between = node.text.slice(
      previous.endIndex - node.startIndex,
      child.startIndex - node.startIndex,
    );
    return !/[ \t]/.test(between);
  }

  /** `cat 0<f` redirects descriptor 0 to bash; tree-sitter reads a word `0` and a plain `<f`. */
  private digitsBefore(node: SyntaxNode, redirect: SyntaxNode): void {
    const before = node.text.slice(0, redirect.startIndex - node.startIndex);
    if (/(?:^|[ \t])\d+$/.test(before)) {
      this.reasons.push(
        `a number right before a redirection, which bash reads as a descriptor: ${clip(node.text)}`,
      );
    }
  }

  private redirect(node: SyntaxNode, command: SimpleCommand): void {
    this.gaps(node);
    let fd = '';
    let operator = '';
    const targets: SyntaxNode[] = [];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === 'file_descriptor' && /^\d+$/.test(child.text)) fd = child.text;
      else if (!child.isNamed && operator === '') operator = child.type;
      else if (child.isNamed) targets.push(child);
      else this.refuse(child);
    }
    const [target, extra] = targets;
    if (extra) {
      this.reasons.push(
        `a word follows a redirection, which tree-sitter and bash read differently: ${clip(node.text)}`,
      );
      return;
    }
    if (operator === '>&-' || operator === '<&-') {
      if (!target) command.redirects.push({ kind: 'duplicate', text: `${fd}${operator}` });
      else this.refuse(node);
      return;
    }
    const value = target ? literalWord(target) : undefined;
    if (!value) {
      this.refuse(target ?? node);
      return;
    }
    if ((operator === '>&' || operator === '<&') && /^(?:\d+|-)$/.test(value.text)) {
      command.redirects.push({ kind: 'duplicate', text: `${fd}${operator}${value.text}` });
    } else if (DISCARD_OPERATORS.has(operator) && value.text === '/dev/null') {
      command.redirects.push({ kind: 'discard', fd, operator });
    } else if (operator === '<') {
      command.redirects.push({ kind: 'input', fd, target: value, text: clip(node.text) });
    } else {
      // `> f`, `>& f` (bash reads a name there as `&> f`), `<> f` (opens f for writing).
      const reason = `writes to a file: ${clip(node.text)}`;
      this.reasons.push(reason);
      this.partReasons.set(command.start, [...(this.partReasons.get(command.start) ?? []), reason]);
    }
  }
}

/** Errors and missing nodes anywhere, which `hasError` reports only as a whole. */
function brokenNode(node: SyntaxNode): SyntaxNode | undefined {
  if (node.isError || node.isMissing || node.type === 'ERROR') return node;
  for (const child of node.children) {
    const broken = child ? brokenNode(child) : undefined;
    if (broken) return broken;
  }
  return undefined;
}

/** Checks the whole tree against the grammar; what fits comes back as a flat script. */
export function readScript(root: SyntaxNode): GrammarResult {
  const broken = root.hasError ? (brokenNode(root) ?? root) : brokenNode(root);
  if (broken) {
    return { fits: false, parsed: false, reasons: [describe(broken)], partReasons: new Map() };
  }
  const reader = new Reader();
  reader.program(root); // tree-sitter-bash always roots at `program`
  if (reader.reasons.length > 0) {
    return { fits: false, parsed: true, reasons: reader.reasons, partReasons: reader.partReasons };
  }
  return { fits: true, items: reader.items };
}

/** Every simple command anywhere in the tree, for showing a command the grammar did not accept. */
export function allCommands(root: SyntaxNode): SyntaxNode[] {
  return root.descendantsOfType('command');
}
