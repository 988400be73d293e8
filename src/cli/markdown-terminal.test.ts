import { describe, expect, it } from 'vitest';
import { createAnswerPrinter } from './answer-printer';
import { COLOR_PAINT, PLAIN_STYLE, type CliStyle } from './cli-style';
import { displayWidth } from './display-width';
import { lexMarkdown, renderBlocks, renderMarkdown } from './markdown-terminal';
import { createTerminalText } from './terminal-text';

const COLOR: CliStyle = { color: true, text: createTerminalText(true), paint: COLOR_PAINT };
const ESC = '\u001b';

const plain = (source: string, columns = 80): string =>
  renderMarkdown(source, { style: PLAIN_STYLE, columns }).join('\n');

describe('markdown for the terminal (no colour)', () => {
  it.each([
    { case: 'heading 1', md: '# Title', out: 'Title\n═════' },
    { case: 'heading 2', md: '## Sub', out: 'Sub\n───' },
    { case: 'heading 3', md: '### Deep', out: '### Deep' },
    { case: 'paragraph keeps its line breaks', md: 'one\ntwo', out: 'one\ntwo' },
    { case: 'emphasis and code lose their marks', md: 'a **b** *c* `d`', out: 'a b c d' },
    { case: 'entities', md: 'a &amp; b &lt;c&gt; &#65;', out: 'a & b <c> A' },
    { case: 'link with its address', md: '[docs](https://x.y/z)', out: 'docs (https://x.y/z)' },
    { case: 'bare link once', md: '<https://x.y>', out: 'https://x.y' },
    { case: 'bullets', md: '- a\n- b', out: '• a\n• b' },
    { case: 'nested bullets', md: '- a\n  - b\n- c', out: '• a\n  • b\n• c' },
    { case: 'numbers from their start', md: '3. x\n4. y', out: '3. x\n4. y' },
    { case: 'tasks', md: '- [x] done\n- [ ] todo', out: '• [x] done\n• [ ] todo' },
    {
      case: 'code block indented, language above',
      md: '```js\nx = 1\n  y\n```',
      out: '  js\n    x = 1\n      y',
    },
    { case: 'quote', md: '> said\n> so', out: '│ said\n│ so' },
    { case: 'rule', md: '---', out: '─'.repeat(40) },
    { case: 'blocks apart', md: '# A\n\ntext\n\n- x', out: 'A\n═\n\ntext\n\n• x' },
    {
      case: 'table, aligned',
      md: '| name | n |\n|:-----|--:|\n| a | 1 |\n| bbb | 22 |',
      out: [
        '┌──────┬────┐',
        '│ name │  n │',
        '├──────┼────┤',
        '│ a    │  1 │',
        '│ bbb  │ 22 │',
        '└──────┴────┘',
      ].join('\n'),
    },
    { case: 'html is text, not markup', md: '<b>x</b>', out: '<b>x</b>' },
  ])('$case', ({ md, out }) => {
    expect(plain(md)).toBe(out);
  });

  it('a table too wide for the terminal becomes one block per row', () => {
    const md = `| key | value |\n|---|---|\n| a | ${'x'.repeat(50)} |\n| b | short |`;
    expect(plain(md, 30)).toBe(`key: a\nvalue: ${'x'.repeat(50)}\n\nkey: b\nvalue: short`);
  });

  it('measures wide characters as two columns', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('é')).toBe(1);
    expect(plain('| 日本 | a |\n|---|---|\n| b | c |').split('\n')[0]).toBe('┌──────┬───┐');
  });

  it.each([
    { where: 'heading', md: `# a${ESC}[2Jb` },
    { where: 'table cell', md: `| a${ESC}]52;c;eA==\u0007 |\n|---|\n| \u202ex |` },
    { where: 'code block', md: `\`\`\`\nrm -rf /\r${ESC}[2K ls\n\`\`\`` },
    { where: 'link address', md: `[ok](http://x${ESC}[8m)` },
    { where: 'entity', md: 'x &#27;[31m y &#x9b;2J' },
  ])('hostile text in a $where stays visible and inert', ({ md }) => {
    for (const style of [PLAIN_STYLE, COLOR]) {
      const out = renderMarkdown(md, { style, columns: 80 })
        .join('\n')
        // eslint-disable-next-line no-control-regex -- removing our own SGR is the point
        .replace(/\u001b\[[0-9;]*m/g, '');
      // eslint-disable-next-line no-control-regex -- the point of the check
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    }
  });

  it('styles with its own SGR pairs on a colour terminal', () => {
    const out = renderMarkdown('**b** `c`', { style: COLOR, columns: 80 }).join('\n');
    expect(out).toBe(`${ESC}[1mb${ESC}[22m ${ESC}[36mc${ESC}[39m`);
  });
});

describe('the answer as it streams', () => {
  const ANSWER =
    '# Plan\n\nI will:\n\n1. read\n2. fix\n\n```sh\nnpm test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.';

  it.each([1, 3, 7, 1000])(
    'in pieces of %i characters it draws what the whole text draws',
    (size) => {
      let out = '';
      const printer = createAnswerPrinter({
        write: (t) => (out += t),
        style: PLAIN_STYLE,
        render: { lexMarkdown, renderBlocks },
        columns: () => 80,
      });
      for (let i = 0; i < ANSWER.length; i += size) printer.push(ANSWER.slice(i, i + size));
      printer.finish();
      expect(out).toBe(`${plain(ANSWER)}\n`);
    },
  );

  it('prints a block as soon as the next one begins', () => {
    let out = '';
    const printer = createAnswerPrinter({
      write: (t) => (out += t),
      style: PLAIN_STYLE,
      render: { lexMarkdown, renderBlocks },
      columns: () => 80,
    });
    printer.push('# Title\n\nsome te');
    expect(out).toBe('Title\n═════\n');
    printer.push('xt\n');
    expect(out).toBe('Title\n═════\n');
    printer.finish();
    expect(out).toBe('Title\n═════\n\nsome text\n');
  });

  it('piped, it passes the markdown through as it comes', () => {
    let out = '';
    const printer = createAnswerPrinter({
      write: (t) => (out += t),
      style: PLAIN_STYLE,
      render: false,
      columns: () => 80,
    });
    printer.push('# A\n**b');
    printer.push(`** ${ESC}[2J`);
    printer.finish();
    expect(out).toBe('# A\n**b** \\x1b[2J\n');
  });
});
