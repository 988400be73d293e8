// What a rule or a grant allows: a command's parsed words (matched word by word against each
// sub-command, never as a raw substring), a whole tool by name, or every tool of one MCP server. A command rule matches its
// words EXACTLY unless the person widened it to a prefix in the rule preview (`npm test *`);
// which widenings are allowed at all is decided in ./rule-widening.ts.
import type { CommandPart } from '../../shared/tool-types';
import { furtherWordsAccepted, furtherWordsCovered, furtherWordsPhrase } from './rule-widening';
import { quoteWord, showPattern, showWords } from './shown-words';

/** 'exact': the same words, nothing added. 'prefix': these words, then any further words. */
export type CommandMatch = 'exact' | 'prefix';

export type PermissionRule =
  | {
      readonly kind: 'command';
      readonly argv: readonly string[];
      readonly match: CommandMatch;
    }
  /** `definition`: for an MCP tool, the server definition it was allowed for (see below). */
  | { readonly kind: 'tool'; readonly tool: string; readonly definition?: string }
  /**
   * Every tool of the MCP server of this name (`mcp__<server>__*`), as the registry names them,
   * while the server runs the definition (command, args, env, cwd / url, headers; its hash) the
   * person allowed: a changed `.mcp.json` may put another program under the same name.
   */
  | { readonly kind: 'mcp-server'; readonly server: string; readonly definition?: string };

export type CommandRule = Extract<PermissionRule, { kind: 'command' }>;

/** What "allow" stores for one sub-command unless the person widens it: its exact words. */
export function exactRule(argv: readonly string[]): CommandRule {
  return { kind: 'command', argv: [...argv], match: 'exact' };
}

export function widenedRule(prefix: readonly string[]): CommandRule {
  return { kind: 'command', argv: [...prefix], match: 'prefix' };
}

/**
 * Characters that would let a matched program do more than its words say: redirections,
 * substitutions, backgrounding. A part containing them is never covered by a rule or a grant,
 * even when quoted (asking once too often is the safe side).
 */
const SMUGGLING = /[<>`]|\$\(|\$\{|&$|&[^&]/;

/** True when `part` is a run of the program named by `rule` with exactly (or at least) its words. */
export function ruleMatchesPart(rule: PermissionRule, part: CommandPart): boolean {
  if (rule.kind !== 'command' || rule.argv.length === 0) return false;
  if (!wordsMatch(rule, part.argv)) return false;
  if (SMUGGLING.test(part.text)) return false;
  // `PATH=/tmp/x npm test` changes what `npm` means: the part must start with the program itself.
  const firstWord = part.text.trimStart().split(/\s+/)[0] ?? '';
  return firstWord.replace(/['"]/g, '') === part.argv[0];
}

function wordsMatch(rule: CommandRule, argv: readonly string[]): boolean {
  switch (rule.match) {
    case 'exact':
      return argv.length === rule.argv.length && rule.argv.every((word, i) => argv[i] === word);
    case 'prefix':
      return (
        argv.length >= rule.argv.length &&
        rule.argv.every((word, i) => argv[i] === word) &&
        furtherWordsCovered(rule.argv, argv.slice(rule.argv.length))
      );
  }
}

export function ruleMatchesTool(rule: PermissionRule, toolName: string): boolean {
  return rule.kind === 'tool' && rule.tool === toolName;
}

/** The MCP server a call comes from: its name and the hash of the definition that runs. */
export interface McpCallServer {
  readonly server: string;
  readonly definition: string;
}

/**
 * A tool rule for this MCP tool, or a server rule for its server, made for the definition that
 * runs now. A rule without a definition (stored before they were kept) covers no MCP call: it
 * cannot tell the program it was given for from another one under the same name.
 */
export function ruleCoversCall(
  rule: PermissionRule,
  toolName: string,
  origin: McpCallServer,
): boolean {
  if (rule.kind === 'command' || rule.definition !== origin.definition) return false;
  if (rule.kind === 'mcp-server') return rule.server === origin.server;
  return rule.tool === toolName;
}

export function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  if (a.kind === 'tool') {
    return b.kind === 'tool' && a.tool === b.tool && a.definition === b.definition;
  }
  if (a.kind === 'mcp-server') {
    return b.kind === 'mcp-server' && a.server === b.server && a.definition === b.definition;
  }
  return (
    b.kind === 'command' &&
    a.match === b.match &&
    a.argv.length === b.argv.length &&
    a.argv.every((word, i) => b.argv[i] === word)
  );
}

/** A stable key for maps and ids: kind, match and words. */
export function ruleKey(rule: PermissionRule): readonly string[] {
  switch (rule.kind) {
    case 'command':
      return ['command', rule.match, ...rule.argv];
    case 'tool':
      return ['tool', rule.tool, ...(rule.definition !== undefined ? [rule.definition] : [])];
    case 'mcp-server':
      return [
        'mcp-server',
        rule.server,
        ...(rule.definition !== undefined ? [rule.definition] : []),
      ];
  }
}

/** The rule as a pattern: `rm build` (exact) or `npm test *` (widened). `*` is never a word. */
export function rulePattern(rule: CommandRule): string {
  const words = rule.argv.map(quoteWord).join(' ');
  return rule.match === 'prefix' ? `${words} *` : words;
}

/**
 * How a rule is shown to the person, saying exactly what it covers:
 * "`rm build` exactly", "`npm test *` (`npm test` with any further words)", "tool `write_file`".
 */
export function describeRule(rule: PermissionRule): string {
  if (rule.kind === 'tool') return `tool \`${rule.tool}\``;
  if (rule.kind === 'mcp-server') return `every tool of the MCP server \`${rule.server}\``;
  const words = showWords(rule.argv);
  return rule.match === 'exact'
    ? `${words} exactly`
    : `${showPattern(rule.argv)} (${words} ${furtherWordsPhrase(rule.argv)})`;
}

/** Which commands a rule accepts, in a sentence for the rule preview. */
export function describeAccepted(rule: PermissionRule): string {
  if (rule.kind === 'tool') return `accepts every call of the tool \`${rule.tool}\``;
  if (rule.kind === 'mcp-server') {
    return `accepts every call of every tool the MCP server \`${rule.server}\` offers, now or later`;
  }
  const words = showWords(rule.argv);
  return rule.match === 'exact'
    ? `accepts only ${words}: the same words in the same order, nothing added or left out`
    : `accepts ${words} alone or ${furtherWordsAccepted(rule.argv)}; ` +
        'never with a redirection, a substitution or a path outside the project';
}
