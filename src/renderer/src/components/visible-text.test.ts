// The window's cards rendered to markup (React's server renderer, no DOM needed): hostile text
// from the model reaches the page only as marked escapes, never as raw control or bidi characters.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ToolPreview } from '../../../shared/tool-types';
import type { ApprovalState, ToolItem } from '../stores/trace-model';
import { ApprovalDetails, previewSummary } from './approval-details';
import { ApprovalPreview } from './approval-preview';
import { ToolCallCard } from './tool-call-card';
import { VisibleText } from './visible-text';

const ESC = '\u001b';
const HOSTILE = `rm -rf src '${ESC}[30A${ESC}[J\n── fake card ──' \u202etxt.exe \u200b`;
const SHOWN_INLINE =
  'rm -rf src &#x27;<span class="escape" title="Hidden character U+001B">\\x1b</span>[30A' +
  '<span class="escape" title="Hidden character U+001B">\\x1b</span>[J' +
  '<span class="escape" title="Hidden character U+000A">\\n</span>';

const RAW =
  // eslint-disable-next-line no-control-regex -- the point of the check
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

function render(element: React.ReactElement): string {
  return renderToStaticMarkup(element);
}

describe('VisibleText', () => {
  it.each<[string, Parameters<typeof VisibleText>[0], string]>([
    ['plain text stays plain', { text: 'npm test', layout: 'inline' }, 'npm test'],
    [
      'markup stays text',
      { text: '<img src=x onerror=alert(1)>', layout: 'inline' },
      '&lt;img src=x onerror=alert(1)&gt;',
    ],
    [
      'a bidi override is a marked escape',
      { text: 'a\u202eb', layout: 'inline' },
      'a<span class="escape" title="Hidden character U+202E">⟨U+202E⟩</span>b',
    ],
    [
      'a command line breaks after its newline escape',
      { text: 'ls\nrm x', layout: 'inline', breakAtNewline: true },
      'ls<span class="escape" title="Hidden character U+000A">\\n</span>\nrm x',
    ],
    [
      'output loses its colours',
      { text: `${ESC}[32mok${ESC}[0m`, layout: 'lines', dropColours: true },
      'ok',
    ],
    ['lines keep their newlines', { text: 'a\nb', layout: 'lines' }, 'a\nb'],
  ])('%s', (_name, props, expected) => {
    expect(render(createElement(VisibleText, props))).toBe(expected);
  });
});

describe('the approval card', () => {
  const previews: readonly [string, ToolPreview][] = [
    [
      'command',
      {
        kind: 'command',
        command: HOSTILE,
        cwd: `/p/${ESC}]0;t`,
        parts: [
          { text: HOSTILE, argv: [], safe: false, reasons: [`writes ${ESC}[8m`] },
          { text: 'ls', argv: ['ls'], safe: true, reasons: [] },
        ],
        sandbox: { kind: 'bwrap', available: true, description: 'bubblewrap' },
      },
    ],
    [
      'diff',
      {
        kind: 'diff',
        path: `a${ESC}[2J.ts`,
        diff: `--- a\n+++ b\n@@ -1 +1 @@\n-x\n+${HOSTILE}\r\n`,
        summary: '+1 −1',
        isNewFile: false,
      },
    ],
    ['url', { kind: 'url', method: 'GET', url: `https://e.com/${HOSTILE}` }],
    ['text', { kind: 'text', text: `tool\n${HOSTILE}` }],
  ];

  it.each(previews)('a %s preview shows escapes, never the raw characters', (kind, preview) => {
    const approval: ApprovalState = {
      requestId: 'q',
      at: 0,
      name: 'shell',
      args: {},
      argsHash: 'h',
      effect: 'exec',
      preview,
      reasons: [`after reading ${HOSTILE}`],
      answer: null,
    };
    const html = render(createElement(ApprovalDetails, { approval }));
    expect(html).not.toMatch(RAW);
    expect(html).toContain('⟨U+202E⟩');
    expect(html).toContain(`after reading ${SHOWN_INLINE}`);
    if (kind === 'command') {
      expect(html).toContain(
        `<span class="prompt">$ </span>${SHOWN_INLINE}\n── fake card ──&#x27;`,
      );
      expect(html).toContain('writes <span class="escape"');
    }
    const summary = previewSummary(preview);
    expect(summary).not.toMatch(RAW);
    expect(summary).not.toContain('\n');
  });

  it('the command preview is the whole command, however long', () => {
    const command = `echo ${'x'.repeat(2000)} ${ESC}`;
    const html = render(
      createElement(ApprovalPreview, {
        preview: {
          kind: 'command',
          command,
          cwd: '/p',
          parts: [],
          sandbox: { kind: 'none', available: false, description: 'none' },
        },
      }),
    );
    expect(html).toContain(`echo ${'x'.repeat(2000)} <span class="escape"`);
  });
});

describe('the tool call card', () => {
  it('shows name, arguments, output and provenance with escapes', () => {
    const tool: ToolItem = {
      kind: 'tool',
      id: 'c',
      callId: 'c',
      runId: 'r',
      name: `read_file${ESC}[8m`,
      args: { path: HOSTILE },
      // A write that ran without a card: its reason to run is news, so it is shown.
      effect: 'write',
      status: 'done',
      startedAt: 0,
      output: '',
      outputTotal: 0,
      result: `${ESC}[31mred${ESC}[0m then ${ESC}]52;c;eA==${ESC}\\ and \u202e`,
      provenance: `rule \`${HOSTILE}\` of this project`,
    };
    const html = render(createElement(ToolCallCard, { tool, queue: null }));
    expect(html).not.toMatch(RAW);
    expect(html).toContain('read_file<span class="escape"');
    expect(html).toContain(`path: ${HOSTILE.slice(0, 10)}`);
    // Colours dropped, the clipboard write shown.
    expect(html).toContain(
      'red then <span class="escape" title="Hidden character U+001B">\\x1b</span>]52;c;eA==',
    );
    // The reason marks code with backticks: drawn as code, escapes inside.
    expect(html).toContain(`Ran because: <span class="rule-text">rule <code>${SHOWN_INLINE}`);
  });
});
