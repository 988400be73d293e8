// Turns tree-sitter-bash word nodes into the words the shell would pass, after quote removal,
// without performing any expansion. Anything that would expand is reported instead.
import type { SyntaxNode } from './bash-parser';

export interface WordFindings {
  /** Reasons the word is not a plain literal ("expands a variable: $HOME"). */
  readonly reasons: string[];
  /** Nested command lines found inside the word ($(...), <(...)), to be classified as parts too. */
  readonly nested: SyntaxNode[];
  /** The word has an unquoted wildcard somewhere, so it may name files other than itself. */
  glob: boolean;
}

export function newFindings(): WordFindings {
  return { reasons: [], nested: [], glob: false };
}

const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

function unescapeBare(text: string): string {
  // A backslash quotes the next character; backslash-newline is a line continuation.
  return text.replace(/\\(\n|.)/gs, (_, ch: string) => (ch === '\n' ? '' : ch));
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(.)/gs, (whole, ch: string) =>
    DOUBLE_QUOTE_ESCAPES.has(ch) ? (ch === '\n' ? '' : ch) : whole,
  );
}

function substitution(node: SyntaxNode, findings: WordFindings): void {
  findings.reasons.push(`runs a nested command: ${node.text}`);
  for (const child of node.namedChildren) if (child) findings.nested.push(child);
}

/** Records expansions and substitutions anywhere under `node` (here-doc bodies, arithmetic). */
export function scanExpansions(node: SyntaxNode, findings: WordFindings): void {
  switch (node.type) {
    case 'command_substitution':
    case 'process_substitution':
      substitution(node, findings);
      return;
    case 'simple_expansion':
    case 'expansion':
      findings.reasons.push(`expands a variable: ${node.text}`);
      return;
    case 'arithmetic_expansion':
      findings.reasons.push(`expands arithmetic: ${node.text}`);
      break;
  }
  for (const child of node.namedChildren) if (child) scanExpansions(child, findings);
}

/** The literal value of a word node, with findings for whatever is not literal. */
export function wordValue(node: SyntaxNode, findings: WordFindings): string {
  switch (node.type) {
    case 'word':
    case 'number': {
      if (/[*?[]/.test(node.text)) findings.glob = true;
      return unescapeBare(node.text);
    }
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      let value = '';
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') value += unescapeDoubleQuoted(child.text);
        else {
          scanExpansions(child, findings);
          value += child.text;
        }
      }
      return value;
    }
    case 'concatenation': {
      if (
        node.namedChildren.some((child) => child?.type === 'word' && child.text.startsWith('{'))
      ) {
        findings.reasons.push(`expands braces: ${node.text}`);
      }
      let value = '';
      for (const child of node.namedChildren) if (child) value += wordValue(child, findings);
      return value;
    }
    case 'command_substitution':
    case 'process_substitution':
      substitution(node, findings);
      return node.text;
    case 'simple_expansion':
    case 'expansion':
    case 'arithmetic_expansion':
      scanExpansions(node, findings);
      return node.text;
    case 'brace_expression':
      findings.reasons.push(`expands braces: ${node.text}`);
      return node.text;
    case 'ansi_c_string':
    case 'translated_string':
      findings.reasons.push(`uses special quoting: ${node.text}`);
      scanExpansions(node, findings);
      return node.text;
    default:
      findings.reasons.push(`uses shell syntax that is not auto-approved: ${node.text}`);
      scanExpansions(node, findings);
      return node.text;
  }
}
