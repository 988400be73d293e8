// Splits a command line into simple commands with a real shell parser (tree-sitter-bash) and
// decides whether it may run without asking. Approval decides whether it runs; the sandbox limits
// what it can do; the two are independent.
import path from 'node:path';
import type { CommandPart } from '../../shared/tool-types';
import { parseBash } from './bash-parser';
import type { SyntaxNode } from './bash-parser';
import { checkConditionNode, fileTestOperands } from './condition-check';
import {
  judgeArgv,
  judgeCd,
  judgeWildcards,
  leadsOutsideBySymlink,
  namesOutside,
} from './command-spec-check';
import type { Place } from './command-spec-check';
import { newFindings, scanExpansions, wordValue } from './command-words';
import { gitScopeReason } from './git-toplevel';
import { hasWildcard } from './glob-matches';

export interface CommandClassification {
  /** False when the parser failed; such a command is never safe. */
  readonly parsed: boolean;
  /** True only when every part is a known read-only command with safe flags and nothing writes. */
  readonly safe: boolean;
  /** One per simple command (split across ; && || | subshells), each with argv, safe, reasons. */
  readonly parts: readonly CommandPart[];
  /** Person-readable: "writes to a file: > out.txt", "runs a nested command: $(...)". */
  readonly reasons: readonly string[];
}

interface Draft {
  text: string;
  argv: string[];
  reasons: string[];
  /** Where the part starts in the source, to tell which part a redirection belongs to. */
  readonly start: number;
  /** For git: every folder it may run in (each `cd` base, moved by `-C`), to check its repository. */
  gitDirs?: string[];
}

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

/** Nodes that only group or sequence commands. */
const SEQUENCES = new Set([
  'program',
  'list',
  'pipeline',
  'compound_statement',
  'subshell',
  'negated_command',
  'do_group',
]);
const CONSTRUCTS: Readonly<Record<string, string>> = {
  if_statement: 'if',
  elif_clause: 'elif',
  else_clause: 'else',
  while_statement: 'while',
  for_statement: 'for',
  c_style_for_statement: 'for',
  case_statement: 'case',
  case_item: 'case',
  function_definition: 'a function definition',
};
const OUTPUT_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);

class Walker {
  readonly parts: Draft[] = [];
  readonly extra: string[] = [];

  private place: Place;

  constructor(folder: string) {
    this.place = { root: folder, bases: [folder] };
  }

  /** Subshells (and each element of a pipeline) cannot move the parent shell's folder. */
  private scoped(work: () => void): void {
    const saved = this.place;
    work();
    this.place = saved;
  }

  statement(node: SyntaxNode): void {
    if (SEQUENCES.has(node.type)) {
      const isolated = node.type === 'subshell' || node.type === 'pipeline';
      for (const child of node.children) {
        if (!child) continue;
        if (child.type === '&') this.last(`runs in the background: ${node.text}`);
        else if (child.isNamed && isolated) this.scoped(() => this.statement(child));
        else if (child.isNamed) this.statement(child);
      }
      return;
    }
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        this.command(node);
        return;
      case 'redirected_statement':
        this.redirected(node);
        return;
      case 'test_command': {
        // `[ ... ]` and `[[ ... ]]` only evaluate a condition; what they expand still counts.
        const findings = newFindings();
        scanExpansions(node, findings);
        const evaluates = checkConditionNode(node);
        const reasons = evaluates ? [evaluates, ...findings.reasons] : [...findings.reasons];
        const operands = fileTestOperands(node);
        const outside = operands.filter(
          (word) => namesOutside(this.place, word) || leadsOutsideBySymlink(this.place, word),
        );
        if (outside.length > 0) {
          reasons.push(`reads outside the project folder: ${outside.join(' ')}`);
        }
        // `[ -f .*/x ]` expands the wildcard (`[[ ]]` does not; judging it anyway only asks more).
        reasons.push(...judgeWildcards(operands.filter(hasWildcard), this.place));
        this.parts.push({
          start: node.startIndex,
          text: node.text,
          argv: [node.text.startsWith('[[') ? '[[' : '['],
          reasons,
        });
        for (const nested of findings.nested) this.scoped(() => this.statement(nested));
        return;
      }
      case 'variable_assignment':
      case 'variable_assignments':
      case 'declaration_command':
      case 'unset_command':
        this.synthetic(node, `changes shell variables: ${node.text}`);
        return;
    }
    const construct = CONSTRUCTS[node.type];
    this.extra.push(
      construct
        ? `uses a shell construct: ${construct}`
        : `uses shell syntax that is not auto-approved: ${node.type}`,
    );
    // Still collect the commands inside so the person sees them.
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (
        CONSTRUCTS[child.type] ||
        SEQUENCES.has(child.type) ||
        child.type.endsWith('statement') ||
        child.type === 'command'
      ) {
        this.statement(child);
      } else this.nestedIn(child);
    }
  }

  private last(reason: string): void {
    const part = this.parts[this.parts.length - 1];
    if (part) part.reasons.push(reason);
    else this.extra.push(reason);
  }

  private synthetic(node: SyntaxNode, reason: string): void {
    const findings = newFindings();
    scanExpansions(node, findings);
    this.parts.push({
      start: node.startIndex,
      text: node.text,
      argv: [],
      reasons: [reason, ...findings.reasons],
    });
    for (const nested of findings.nested) this.scoped(() => this.statement(nested));
  }

  /** Classifies commands nested inside a non-statement node (conditions, case words). */
  private nestedIn(node: SyntaxNode): void {
    const findings = newFindings();
    scanExpansions(node, findings);
    this.extra.push(...findings.reasons);
    for (const nested of findings.nested) this.scoped(() => this.statement(nested));
  }

  private command(node: SyntaxNode): void {
    const findings = newFindings();
    const draft: Draft = { start: node.startIndex, text: node.text, argv: [], reasons: [] };
    const globWords: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') {
        draft.reasons.push(`sets variables for the command: ${child.text}`);
        scanExpansions(child, findings);
      } else if (child.type === 'command_name') {
        const word = child.namedChildren[0];
        if (word) draft.argv.push(wordValue(word, findings));
      } else if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
        draft.reasons.push(...this.redirectReasons(child, findings));
      } else {
        findings.glob = false;
        const value = wordValue(child, findings);
        draft.argv.push(value);
        if (findings.glob) globWords.push(value);
      }
    }
    draft.reasons.push(...findings.reasons);
    this.parts.push(draft);
    // Substitutions run before the command, each in a subshell of its own.
    for (const nested of findings.nested) this.scoped(() => this.statement(nested));
    if (draft.argv[0] === 'cd') {
      const cd = judgeCd(draft.argv.slice(1), this.place, globWords.length > 0);
      draft.reasons.push(...cd.reasons);
      this.place = cd.place;
    } else if (draft.argv.length > 0) {
      if (draft.argv[0] === 'git') draft.gitDirs = gitDirs(draft.argv.slice(1), this.place.bases);
      draft.reasons.push(...judgeArgv(draft.argv, this.place, globWords));
      draft.reasons.push(...judgeWildcards(globWords, this.place));
    }
  }

  private redirected(node: SyntaxNode): void {
    const start = this.parts.length;
    const body = node.childForFieldName('body');
    if (body) this.statement(body);
    const findings = newFindings();
    const reasons: string[] = [];
    const piped: SyntaxNode[] = [];
    for (const redirect of node.childrenForFieldName('redirect')) {
      if (!redirect) continue;
      if (redirect.type === 'heredoc_redirect') {
        for (const child of redirect.namedChildren) {
          if (!child) continue;
          if (child.type === 'heredoc_body') scanExpansions(child, findings);
          else if (child.type === 'file_redirect' || child.type === 'herestring_redirect') {
            reasons.push(...this.redirectReasons(child, findings));
          } else if (child.type !== 'heredoc_start' && child.type !== 'heredoc_end')
            piped.push(child);
        }
      } else reasons.push(...this.redirectReasons(redirect, findings));
    }
    reasons.push(...findings.reasons);
    if (this.parts.length === start)
      this.parts.push({
        start: node.startIndex,
        text: node.text,
        argv: [],
        reasons: ['a redirection without a command'],
      });
    // tree-sitter-bash hangs `a && b > f` and `a | b > f` on the whole list or pipeline, but bash
    // binds the redirection to the last command (`b`); groups `{ …; }` and `( … )` take it whole.
    const from = body ? redirectedPart(body).startIndex : node.startIndex;
    const targets = this.parts.slice(start).filter((part) => part.start >= from);
    // Never lose a reason: with no part to carry it, it applies to the whole command line.
    if (targets.length === 0) this.extra.push(...reasons);
    for (const part of targets) part.reasons.push(...reasons);
    // `cat <<EOF | sh`: the pipeline after the here-doc start is the rest of the statement.
    for (const child of piped) this.scoped(() => this.statement(child));
    for (const nested of findings.nested) this.scoped(() => this.statement(nested));
  }

  private redirectReasons(
    redirect: SyntaxNode,
    findings: ReturnType<typeof newFindings>,
  ): string[] {
    if (redirect.type === 'herestring_redirect') {
      for (const child of redirect.namedChildren) if (child) wordValue(child, findings);
      return [];
    }
    const operator = redirect.children.find((child) => child && !child.isNamed)?.type ?? '';
    const destination = redirect.childForFieldName('destination');
    if (!destination) return [`uses a redirection that is not auto-approved: ${redirect.text}`];
    const target = wordValue(destination, findings);
    // Only `>&N` / `<&N` (`2>&1`) name a descriptor; after any other operator a number is a
    // file name (`> 123`, `&> 8`, `2> 5`, `< 5`), judged like any other.
    const duplicate = (operator === '>&' || operator === '<&') && /^(?:\d+|-)$/.test(target);
    if (duplicate) return [];
    if (OUTPUT_OPERATORS.has(operator)) {
      return target === '/dev/null' ? [] : [`writes to a file: ${redirect.text}`];
    }
    if (namesOutside(this.place, target) || leadsOutsideBySymlink(this.place, target)) {
      return [`reads outside the project folder: ${redirect.text}`];
    }
    // bash expands a wildcard in a redirection too (`< li*` reads the one file it matches).
    return hasWildcard(target) ? judgeWildcards([target], this.place) : [];
  }
}

/** The statement a redirection after `body` applies to: the last element of a list or pipeline. */
function redirectedPart(body: SyntaxNode): SyntaxNode {
  if (body.type !== 'list' && body.type !== 'pipeline') return body;
  const named = body.namedChildren.filter((child): child is SyntaxNode => child !== null);
  const last = named[named.length - 1];
  return last ? redirectedPart(last) : body;
}

function toPart(draft: Draft): CommandPart {
  return {
    text: draft.text,
    argv: draft.argv,
    safe: draft.reasons.length === 0,
    reasons: draft.reasons,
  };
}

export async function classifyCommand(
  command: string,
  folder: string,
): Promise<CommandClassification> {
  const tree = await parseBash(command);
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      return {
        parsed: false,
        safe: false,
        parts: [],
        reasons: ['the command could not be parsed, so it needs approval'],
      };
    }
    const walker = new Walker(folder);
    walker.statement(root);
    for (const part of walker.parts) {
      if (part.argv[0] !== 'git') continue;
      const gitScope = await gitScopeReason(folder, part.gitDirs ?? [folder]);
      if (gitScope) part.reasons.push(gitScope);
    }
    const parts = walker.parts.map(toPart);
    const reasons = [...new Set([...walker.extra, ...parts.flatMap((part) => part.reasons)])];
    if (parts.length === 0 && reasons.length === 0) reasons.push('the command is empty');
    return { parsed: true, safe: reasons.length === 0, parts, reasons };
  } finally {
    tree.delete();
  }
}
