// The value of a word node as bash passes it after quote removal, with which characters were
// quoted. Only the node kinds the grammar allows (command-grammar.ts) have a value; anything that
// would expand (variables, substitutions, arithmetic, special quoting) has none.
import type { SyntaxNode } from './bash-parser';

export interface WordValue {
  readonly text: string;
  /** One flag per character of `text` (by code point): true when it was quoted or escaped. */
  readonly quoted: readonly boolean[];
}

const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);
/** Unquoted, these start an expansion or a quote; a word that holds one is not a plain literal. */
const BARE_SPECIAL = new Set(['$', '`', '"', "'"]);

/** A bare word's value from its source text; undefined if it holds an expansion or a quote. */
function bare(text: string): WordValue | undefined {
  let out = '';
  const quoted: boolean[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    if (ch === '\\' && i + 1 < chars.length) {
      const next = chars[++i] ?? '';
      if (next === '\n') continue; // a line continuation
      out += next;
      quoted.push(true);
    } else if (BARE_SPECIAL.has(ch)) {
      return undefined;
    } else {
      out += ch;
      quoted.push(false);
    }
  }
  return { text: out, quoted };
}

/**
 * A double-quoted string's value from the source text between its quotes (tree-sitter leaves
 * newlines and spaces out of its children, so they are no guide). Undefined if it expands
 * anything: an unescaped `$` or backquote.
 */
function doubleQuoted(inner: string): WordValue | undefined {
  let out = '';
  const chars = [...inner];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const next = chars[i + 1];
    if (ch === '\\' && next !== undefined && DOUBLE_QUOTE_ESCAPES.has(next)) {
      i++;
      if (next !== '\n') out += next;
    } else if (ch === '$' || ch === '`' || ch === '"') {
      return undefined;
    } else out += ch;
  }
  return { text: out, quoted: [...out].map(() => true) };
}

function join(values: readonly WordValue[]): WordValue {
  return {
    text: values.map((v) => v.text).join(''),
    quoted: values.flatMap((v) => [...v.quoted]),
  };
}

/**
 * The literal value of a word node, or undefined when any piece of it is not literal. Every child
 * is looked at, unnamed tokens too: tree-sitter gives `$"x"` as a bare `$` token beside a string.
 */
export function literalWord(node: SyntaxNode): WordValue | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
      return node.childCount === 0 ? bare(node.text) : undefined;
    case 'raw_string': {
      const inner = node.text.slice(1, -1);
      return { text: inner, quoted: [...inner].map(() => true) };
    }
    case 'string': {
      const only = node.children.every(
        (child) => child !== null && (child.type === 'string_content' || child.type === '"'),
      );
      return only && node.text.length >= 2 ? doubleQuoted(node.text.slice(1, -1)) : undefined;
    }
    case 'concatenation': {
      // The pieces must cover the word exactly: nothing between them that the tree left out.
      const pieces: WordValue[] = [];
      let at = node.startIndex;
      for (const child of node.children) {
        const value = child && child.startIndex === at ? literalWord(child) : undefined;
        if (!value || !child) return undefined;
        pieces.push(value);
        at = child.endIndex;
      }
      return at === node.endIndex ? join(pieces) : undefined;
    }
    default:
      return undefined;
  }
}

/** The word as far as it can be told, for showing parts of a command the grammar did not accept. */
export function shownWord(node: SyntaxNode): string {
  return literalWord(node)?.text ?? node.text;
}

/** Why bash would do more with this literal word than pass it on, if it would. */
export function wordExpansionReason(word: WordValue): string | undefined {
  const unquoted = (at: number): boolean => word.quoted[at] === false;
  const chars = [...word.text];
  if (chars[0] === '~' && unquoted(0)) return `expands ~ to a home folder: ${word.text}`;
  const open = chars.findIndex((ch, i) => ch === '{' && unquoted(i));
  if (open >= 0 && chars.some((ch, i) => i > open && ch === '}' && unquoted(i))) {
    return `expands braces: ${word.text}`;
  }
  return undefined;
}
