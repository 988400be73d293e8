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

function bare(text: string): WordValue {
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
    } else {
      out += ch;
      quoted.push(false);
    }
  }
  return { text: out, quoted };
}

function doubleQuoted(text: string): WordValue {
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const next = chars[i + 1];
    if (ch === '\\' && next !== undefined && DOUBLE_QUOTE_ESCAPES.has(next)) {
      i++;
      if (next !== '\n') out += next;
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
      const pieces: WordValue[] = [];
      for (const child of node.children) {
        if (!child) return undefined;
        if (child.type === 'string_content') pieces.push(doubleQuoted(child.text));
        else if (child.isNamed || child.type !== '"') return undefined;
      }
      return join(pieces);
    }
    case 'concatenation': {
      const pieces: WordValue[] = [];
      for (const child of node.children) {
        const value = child ? literalWord(child) : undefined;
        if (!value) return undefined;
        pieces.push(value);
      }
      return join(pieces);
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
