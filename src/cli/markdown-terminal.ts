// The model's answer for a terminal: markdown parsed by marked's lexer and drawn as text —
// headings, lists, code blocks, quotes and tables. Nothing is interpreted as HTML or as a
// terminal sequence: every piece of the model's text goes through the terminal sanitiser
// (terminal-text.ts) and only Tandem's own styles (cli-style.ts) are added around it.
import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import type { CliStyle } from './cli-style';
import { displayWidth } from './display-width';

export interface MarkdownOptions {
  readonly style: CliStyle;
  /** Terminal width; tables wider than this are drawn as one "header: value" block per row. */
  readonly columns: number;
}

/** Parses markdown into top-level blocks, each with the source text it came from. */
export function lexMarkdown(source: string): Token[] {
  try {
    return new Lexer({ gfm: true }).lex(source);
  } catch {
    // The lexer refuses pathological input; the text is still shown, as one paragraph.
    return [{ type: 'paragraph', raw: source, text: source, tokens: [textToken(source)] }];
  }
}

/** Lines for the terminal (no trailing newline), blank lines between blocks. */
export function renderMarkdown(source: string, options: MarkdownOptions): string[] {
  return renderBlocks(lexMarkdown(source), options);
}

export function renderBlocks(tokens: readonly Token[], options: MarkdownOptions): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const lines = block(token, options);
    if (lines.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(...lines);
  }
  return out;
}

function textToken(text: string): Tokens.Text {
  return { type: 'text', raw: text, text, escaped: false };
}

function block(token: Token, o: MarkdownOptions): string[] {
  const { paint, text } = o.style;
  const t = token as MarkedToken;
  switch (t.type) {
    case 'space':
    case 'def':
      return [];
    case 'heading': {
      const lines = inline(t.tokens, o).split('\n');
      const title = lines.map((l) => paint.bold(t.depth === 1 ? paint.underline(l) : l));
      if (t.depth > 2) return title.map((l) => `${paint.dim('#'.repeat(t.depth))} ${l}`);
      const width = Math.max(...lines.map((l) => displayWidth(plainInline(l))));
      return [...title, paint.dim((t.depth === 1 ? '═' : '─').repeat(Math.min(width, o.columns)))];
    }
    case 'paragraph':
    case 'text':
      return inline(t.tokens ?? [textToken(t.text)], o).split('\n');
    case 'code': {
      const lines = t.text.split('\n').map((l) => `    ${paint.cyan(text.lines(l))}`);
      return t.lang ? [paint.dim(`  ${text.line(t.lang)}`), ...lines] : lines;
    }
    case 'blockquote':
      return renderBlocks(t.tokens, o).map((l) => `${paint.dim('│')} ${l}`);
    case 'list':
      return list(t, o);
    case 'hr':
      return [paint.dim('─'.repeat(Math.min(40, o.columns)))];
    case 'table':
      return table(t, o);
    case 'html':
      return t.text
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => paint.dim(text.line(l)));
    default:
      return token.raw
        .replace(/\n+$/, '')
        .split('\n')
        .map((l) => text.line(l));
  }
}

function list(t: Tokens.List, o: MarkdownOptions): string[] {
  const out: string[] = [];
  const start = typeof t.start === 'number' ? t.start : 1;
  t.items.forEach((item, i) => {
    const marker = t.ordered ? `${start + i}.` : '•';
    const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    const body = item.tokens.filter((c) => c.type !== 'checkbox');
    const lines = t.loose || item.loose ? renderBlocks(body, o) : tightItem(body, o);
    const hang = ' '.repeat(marker.length + 1);
    lines.forEach((line, n) => {
      out.push(n === 0 ? `${o.style.paint.dim(marker)} ${box}${line}` : line ? hang + line : '');
    });
    if (lines.length === 0) out.push(o.style.paint.dim(marker));
    if (t.loose && i < t.items.length - 1) out.push('');
  });
  return out;
}

/** A tight item's text and nested lists, without blank lines between them. */
function tightItem(tokens: readonly Token[], o: MarkdownOptions): string[] {
  return tokens.flatMap((token) => block(token, o));
}

type Align = Tokens.TableCell['align'];

function table(t: Tokens.Table, o: MarkdownOptions): string[] {
  const { paint } = o.style;
  const cell = (c: Tokens.TableCell): string => inline(c.tokens, o).replace(/\n/g, ' ');
  const header = t.header.map(cell);
  const rows = t.rows.map((r) => r.map(cell));
  const widths = header.map((h, i) =>
    Math.max(
      displayWidth(plainInline(h)),
      ...rows.map((r) => displayWidth(plainInline(r[i] ?? ''))),
    ),
  );
  const total = widths.reduce((a, b) => a + b + 3, 1);
  if (total > o.columns) {
    // Too wide to draw: one block per row, each cell under its header.
    return rows.flatMap((r, n) => [
      ...(n > 0 ? [''] : []),
      ...header.map((h, i) => `${paint.bold(h)}: ${r[i] ?? ''}`),
    ]);
  }
  const pad = (value: string, i: number, align: Align): string => {
    const gap = (widths[i] ?? 0) - displayWidth(plainInline(value));
    if (align === 'right') return ' '.repeat(gap) + value;
    if (align === 'center') {
      const left = Math.floor(gap / 2);
      return ' '.repeat(left) + value + ' '.repeat(gap - left);
    }
    return value + ' '.repeat(gap);
  };
  const rule = (l: string, m: string, r: string): string =>
    paint.dim(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r);
  const row = (cells: readonly string[], bold: boolean): string => {
    const bar = paint.dim('│');
    const shown = widths.map((_, i) => {
      const value = pad(cells[i] ?? '', i, t.align[i] ?? null);
      return ` ${bold ? paint.bold(value) : value} `;
    });
    return bar + shown.join(bar) + bar;
  };
  return [
    rule('┌', '┬', '┐'),
    row(header, true),
    rule('├', '┼', '┤'),
    ...rows.map((r) => row(r, false)),
    rule('└', '┴', '┘'),
  ];
}

/** Inline text, styled; real newlines only where the model broke a line. */
function inline(tokens: readonly Token[], o: MarkdownOptions): string {
  const { paint } = o.style;
  let out = '';
  for (const token of tokens) {
    const t = token as MarkedToken;
    switch (t.type) {
      case 'text':
        out += t.tokens ? inline(t.tokens, o) : shown(decodeEntities(t.text), o);
        break;
      case 'escape':
        out += shown(t.text, o);
        break;
      case 'strong':
        out += paint.bold(inline(t.tokens, o));
        break;
      case 'em':
        out += paint.italic(inline(t.tokens, o));
        break;
      case 'del':
        out += paint.strike(inline(t.tokens, o));
        break;
      case 'codespan':
        out += paint.cyan(shown(decodeEntities(t.text), o));
        break;
      case 'br':
        out += '\n';
        break;
      case 'link': {
        const label = inline(t.tokens, o);
        const same = t.text === t.href || `mailto:${t.text}` === t.href;
        out += same
          ? paint.underline(label)
          : `${paint.underline(label)} ${paint.dim(`(${shown(t.href, o)})`)}`;
        break;
      }
      case 'image':
        out += paint.dim(`[image: ${shown(t.text, o)}] (${shown(t.href, o)})`);
        break;
      case 'html':
        out += paint.dim(shown(t.text, o));
        break;
      default:
        out += shown(token.raw, o);
    }
  }
  return out;
}

/** The model's text made visible, line by line (a newline is a line break, never an escape). */
function shown(value: string, o: MarkdownOptions): string {
  return value
    .split('\n')
    .map((l) => o.style.text.line(l))
    .join('\n');
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** The few character references models write; anything decoded is still sanitised after. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

// eslint-disable-next-line no-control-regex -- removing our own SGR sequences to measure width
const OWN_SGR = /\u001b\[[0-9;]*m/g;

/** Text without Tandem's own styles (the sanitiser already made every other escape visible). */
export function plainInline(styled: string): string {
  return styled.replace(OWN_SGR, '');
}
