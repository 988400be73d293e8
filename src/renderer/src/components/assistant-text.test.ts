// The agent's markdown as the window draws it (server-rendered, so under Node): GitHub tables and
// task lists, highlighted code with its language, and nothing of the model's raw HTML.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AssistantText } from './assistant-text';

const render = (text: string): string =>
  renderToStaticMarkup(createElement(AssistantText, { text, streaming: false }));

describe('AssistantText', () => {
  it('draws GitHub tables and task lists', () => {
    const html = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n');
    expect(html).toContain('<table><thead><tr><th>a</th><th>b</th></tr></thead>');
    expect(html).toContain('<td>1</td><td>2</td>');
    expect(html).toContain('<input type="checkbox" disabled="" checked=""/> done');
    expect(html).toContain('class="contains-task-list"');
  });

  it('highlights a fenced block of a known language and names it, with a Copy button', () => {
    const html = render('```ts\nconst answer: number = 42;\n```');
    expect(html).toContain('<span class="code-language">ts</span>');
    expect(html).toContain(
      '<code class="hljs language-ts"><span class="hljs-keyword">const</span>',
    );
    expect(html).toContain('<span class="hljs-number">42</span>');
    expect(html).toContain('>Copy</button>');
  });

  it('shows an unknown language plain, escaped', () => {
    const html = render('```brainfog\n<b>x</b>\n```');
    expect(html).toContain('<code>&lt;b&gt;x&lt;/b&gt;</code>');
  });

  it.each([
    ['a script tag', '<script>alert(1)</script>hi'],
    ['an image with onerror', '<img src=x onerror="alert(1)">'],
    ['a javascript: link', '[click](javascript:alert(1))'],
  ])('drops %s', (_name, text) => {
    const html = render(text);
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });
});
