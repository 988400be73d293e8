// The agent's markdown as the window draws it (server-rendered, so under Node). Issue 13: GitHub
// tables and task lists, highlighted code with its language and a Copy button. Issue 11 item 8:
// what the agent's markdown may turn into, rendered to HTML under Node with
// React's server renderer. No image loads from an answer; a link is a link only to an absolute
// http(s) URL; anything else is text; a link whose words name another address shows the real one.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantText } from './assistant-text';
import { isWebUrl, linkView } from './markdown-links';

function html(text: string): string {
  return renderToStaticMarkup(createElement(AssistantText, { text, streaming: false }));
}

/** Every URL-valued attribute in the markup. */
function urls(markup: string): string[] {
  return [...markup.matchAll(/\s(?:href|src|srcset|action|formaction|xlink:href)="([^"]*)"/g)].map(
    (m) => m[1] as string,
  );
}

const INERT: readonly { name: string; text: string; shown: string }[] = [
  {
    name: 'a protocol-relative image (a UNC path from file://)',
    text: '![x](//host/share/a.png)',
    shown: '[image: x] (//host/share/a.png)',
  },
  {
    name: 'an http image',
    text: '![logo](https://example.com/logo.png)',
    shown: '[image: logo] (https://example.com/logo.png)',
  },
  { name: 'a relative image', text: '![](a.png)', shown: '[image] (a.png)' },
  {
    name: 'a data: image',
    text: '![d](data:image/png;base64,iVBORw0KGgo=)',
    shown: '[image: d]',
  },
  {
    name: 'a reference-style image',
    text: '![r][img]\n\n[img]: //host/share/r.png',
    shown: '[image: r] (//host/share/r.png)',
  },
  {
    name: 'a protocol-relative link',
    text: '[share](//host/share/b)',
    shown: 'share (//host/share/b)',
  },
  { name: 'a relative link', text: '[readme](docs/README.md)', shown: 'readme (docs/README.md)' },
  { name: 'a root-relative link', text: '[etc](/etc/passwd)', shown: 'etc (/etc/passwd)' },
  // rehype-sanitize drops targets of other protocols before the link is drawn: words only.
  { name: 'a file: link', text: '[f](file:///etc/passwd)', shown: 'f' },
  { name: 'a backslash UNC link', text: '[u](\\\\host\\share)', shown: 'u' },
  { name: 'a javascript: link', text: '[j](javascript:alert(1))', shown: 'j' },
  { name: 'a mailto: link', text: '[m](mailto:a@b.c)', shown: 'm (mailto:a@b.c)' },
  { name: 'a fragment link', text: '[top](#top)', shown: 'top (#top)' },
  { name: 'an http: with no host', text: '[h](http:/x)', shown: 'h (http:/x)' },
  {
    name: 'a reference-style link',
    text: '[ref][r]\n\n[r]: //host/share/c',
    shown: 'ref (//host/share/c)',
  },
  // Raw HTML is not parsed at all: its tags are dropped, its text stays.
  { name: 'raw HTML', text: '<img src="//host/share/d.png"> <a href="//host/x">x</a>', shown: 'x' },
];

describe('AssistantText', () => {
  it.each(INERT)('renders $name as text, with no URL attribute', ({ text, shown }) => {
    const markup = html(text);
    expect(markup).not.toContain('<img');
    expect(urls(markup)).toEqual([]);
    expect(markup.replace(/<[^>]+>/g, '')).toContain(shown);
  });

  it('keeps an absolute https link clickable, opening outside', () => {
    const markup = html('See [the docs](https://example.com/docs).');
    expect(urls(markup)).toEqual(['https://example.com/docs']);
    expect(markup).toContain('target="_blank"');
    expect(markup).toContain('rel="noreferrer noopener"');
    expect(markup).toContain('>the docs</a>');
  });

  it.each([
    ['[https://bank.example/login](https://evil.example/login)', 'https://bank.example/login'],
    ['[www.bank.example](https://evil.example/)', 'www.bank.example'],
    ['[bank.example/login](http://evil.example/login)', 'bank.example/login'],
    ['[https://bank.example](https://bank.example.evil.example/)', 'https://bank.example'],
  ])('shows where %s really goes', (text, claimed) => {
    const markup = html(text);
    const [href] = urls(markup);
    expect(href).toMatch(/^https?:\/\/(?:evil\.example|bank\.example\.evil\.example)\//);
    expect(markup).toContain(`>${href}</a>`);
    expect(markup).toContain(`the text said “${claimed}”`);
  });

  it.each([
    ['[https://example.com/docs](https://example.com/docs)'],
    ['[example.com/docs](https://example.com/docs/)'],
    ['[www.example.com](https://www.example.com)'],
    ['<https://example.com/auto>'],
    ['[the docs](https://example.com)'],
    ['[v1.2.3](https://example.com/releases)'],
  ])('leaves an honest link as it is: %s', (text) => {
    expect(html(text)).not.toContain('the text said');
  });
});

describe('isWebUrl / linkView', () => {
  it.each([
    ['https://a.example/x', true],
    ['HTTP://A.EXAMPLE', true],
    ['//a.example/x', false],
    ['/x', false],
    ['x', false],
    ['https:/x', false],
    ['https:\\\\a.example', false],
    ['ftp://a.example', false],
    ['javascript:alert(1)', false],
  ])('%s → %s', (target, expected) => {
    expect(isWebUrl(target)).toBe(expected);
  });

  it('a missing target is text without an address', () => {
    expect(linkView(undefined, 'x')).toEqual({ kind: 'text', target: undefined });
    expect(linkView('', 'x')).toEqual({ kind: 'text', target: undefined });
  });
});

describe('AssistantText: GitHub markdown and code', () => {
  it('draws GitHub tables and task lists', () => {
    const markup = html('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n');
    expect(markup).toContain('<table><thead><tr><th>a</th><th>b</th></tr></thead>');
    expect(markup).toContain('<td>1</td><td>2</td>');
    expect(markup).toContain('<input type="checkbox" disabled="" checked=""/> done');
    expect(markup).toContain('class="contains-task-list"');
  });

  it('highlights a fenced block of a known language and names it, with a Copy button', () => {
    const markup = html('```ts\nconst answer: number = 42;\n```');
    expect(markup).toContain('<span class="code-language">ts</span>');
    expect(markup).toContain(
      '<code class="hljs language-ts"><span class="hljs-keyword">const</span>',
    );
    expect(markup).toContain('<span class="hljs-number">42</span>');
    expect(markup).toContain('>Copy</button>');
  });

  it('shows an unknown language plain, escaped', () => {
    const markup = html('```brainfog\n<b>x</b>\n```');
    expect(markup).toContain('<code>&lt;b&gt;x&lt;/b&gt;</code>');
  });

  it.each([
    ['a script tag', '<script>alert(1)</script>hi'],
    ['an image with onerror', '<img src=x onerror="alert(1)">'],
    ['a javascript: link', '[click](javascript:alert(1))'],
  ])('drops %s', (_name, text) => {
    const markup = html(text);
    expect(markup).not.toMatch(/<script|onerror|javascript:/i);
  });
});
