// Every link in the README, BENCHMARKS.md and docs/ points at a file or folder of this repository
// (and, with a #fragment into a markdown file, at one of its headings): a newcomer following the
// README never lands outside the repository or on nothing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');

function markdownFiles(): string[] {
  const top = readdirSync(ROOT).filter((name) => name.endsWith('.md'));
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return [...top, ...docs].sort();
}

/**
 * Every link and image target of a markdown text — reference definitions, HTML and code spans
 * naming a markdown file by path included.
 */
function targets(source: string): string[] {
  const tokens = new Lexer({ gfm: true }).lex(source);
  const found: string[] = Object.values(tokens.links).map((link) => link.href);
  const walk = (list: readonly Token[]): void => {
    for (const token of list) {
      if (token.type === 'link' || token.type === 'image') found.push(String(token.href));
      // A path to a markdown file written as code is a link in all but name (`../x/DESIGN.md`).
      if (token.type === 'codespan' && /^[\w.-]*\/[\w./-]*\.md$/.test(String(token.text))) {
        found.push(String(token.text));
      }
      if (token.type === 'html') {
        for (const match of String(token.text).matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/g)) {
          found.push(match[1] ?? '');
        }
      }
      const children = (token as { tokens?: Token[] }).tokens;
      if (children) walk(children);
      const items = (token as { items?: Token[] }).items;
      if (items) walk(items);
      const table = token as { header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
      for (const cell of [...(table.header ?? []), ...(table.rows ?? []).flat()]) walk(cell.tokens);
    }
  };
  walk(tokens);
  return [...new Set(found)];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchors(source: string): Set<string> {
  const result = new Set<string>();
  for (const token of new Lexer({ gfm: true }).lex(source)) {
    if (token.type !== 'heading') continue;
    const text = String(token.text)
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    result.add(text);
  }
  return result;
}

/** Why a link from `file` is broken, or null when it resolves inside the repository. */
function problem(file: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) {
    return 'points outside the repository';
  }
  const [path = '', fragment] = href.split('#');
  const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURI(path));
  const inside = relative(ROOT, target);
  if (inside.startsWith('..') || inside.startsWith(sep)) return 'leaves the repository';
  if (!existsSync(target)) return 'names nothing';
  if (fragment !== undefined && target.endsWith('.md') && statSync(target).isFile()) {
    if (!anchors(readFileSync(target, 'utf8')).has(fragment)) return `has no heading #${fragment}`;
  }
  return null;
}

describe('links in the documentation', () => {
  const files = markdownFiles();

  it('finds the README and the architecture page', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', join('docs', 'architecture.md')]));
  });

  it.each(files)('%s links only to files of this repository', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const broken = targets(source)
      .map((href) => ({ href, why: problem(file, href) }))
      .filter((link) => link.why !== null);
    expect(broken).toEqual([]);
  });

  it('reads links from text, tables, HTML and paths written as code', () => {
    const source = [
      '[a](a.md) ![b](b.png) [c][ref]',
      '',
      '| x |',
      '|---|',
      '| [d](d.md) |',
      '',
      '<img src="e.png">',
      '',
      'See `../shared/DESIGN.md`, not `AGENTS.md`.',
      '',
      '[ref]: c.md',
    ].join('\n');
    expect(targets(source).sort()).toEqual(
      ['../shared/DESIGN.md', 'a.md', 'b.png', 'c.md', 'd.md', 'e.png'].sort(),
    );
  });

  it.each([
    { href: 'https://example.com', why: 'points outside the repository' },
    { href: '../shared/DESIGN.md', why: 'leaves the repository' },
    { href: 'docs/nothing-here.md', why: 'names nothing' },
    { href: 'docs/architecture.md#no-such-heading', why: 'has no heading #no-such-heading' },
    { href: 'docs/architecture.md#the-sandbox', why: null },
    { href: '#set-up', why: null },
  ])('the check itself: $href → $why', ({ href, why }) => {
    expect(problem('README.md', href)).toBe(why);
  });
});
