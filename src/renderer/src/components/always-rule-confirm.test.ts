// The window's "Always allow" confirmation: what it shows (rendered to HTML under Node with
// React's server renderer) and the answer each pick sends.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AlwaysRuleChoice, AlwaysRulePreview } from '../../../shared/api';
import { alwaysAnswer, initialSelection, select } from './always-rule-choice';
import { AlwaysRuleConfirm } from './always-rule-confirm';

function choice(
  widen: string[] | null,
  rule: string,
  refused: string | null = null,
): AlwaysRuleChoice {
  return {
    widen,
    rule,
    accepts: `accepts ${rule}`,
    matched: refused ? 0 : 1,
    examples: [],
    summary: refused ? `Not offered: ${refused}` : `${rule} would have run 1 earlier call`,
    refused,
  };
}

/** `npm test -- --watch; git push origin main`: one widenable command, one that is not. */
const PREVIEW: AlwaysRulePreview = {
  rules: ['`npm test -- --watch` exactly', '`git push origin main` exactly'],
  matched: 1,
  examples: [],
  summary: 'summary',
  choices: [
    [
      choice(null, '`npm test -- --watch` exactly'),
      choice(['npm'], '`npm *` (…)', '`npm *` would cover every use of `npm`'),
      choice(['npm', 'test'], '`npm test *` (`npm test` with any further words)'),
      choice(['npm', 'test', '--'], '`npm test -- *` (`npm test --` with any further words)'),
    ],
    [
      choice(null, '`git push origin main` exactly'),
      choice(['git', 'push'], '`git push *`', '`git push` can run other programs'),
    ],
  ],
};

function render(preview: AlwaysRulePreview | null, selection = [0, 0]): string {
  return renderToStaticMarkup(
    createElement(AlwaysRuleConfirm, {
      preview,
      selection,
      error: null,
      disabled: false,
      onSelect: () => {},
      onConfirm: () => {},
      onBack: () => {},
    }),
  );
}

describe('AlwaysRuleConfirm', () => {
  it('offers the exact rule, checked, and each allowed widening; refused ones only with why', () => {
    const html = render(PREVIEW);
    const radios = html.match(/<input type="radio"[^>]*>/g) ?? [];
    // Three choices for `npm test -- --watch`; `git push` has one, so nothing to pick there.
    expect(radios).toHaveLength(3);
    expect(radios[0]).toContain('checked');
    expect(radios.slice(1).some((r) => r.includes('checked'))).toBe(false);
    expect(html).toContain('<code>npm test -- --watch</code> exactly');
    expect(html).toContain(
      '<code>npm test *</code> (<code>npm test</code> with any further words)',
    );
    expect(html).toContain(
      'accepts <code>npm test *</code> (<code>npm test</code> with any further words)',
    );
    expect(html).toContain(
      '<code>npm test *</code> (<code>npm test</code> with any further words) would have run 1 earlier call',
    );
    expect(html).toContain('<summary>Not offered (1)</summary>');
    expect(html).toContain(
      '<li><span class="rule-text"><code>git push</code> can run other programs</span></li>',
    );
    expect(html).not.toContain('`npm *` (…)');
  });

  it('marks the picked widening', () => {
    const html = render(PREVIEW, [2, 0]);
    const radios = html.match(/<input type="radio"[^>]*>/g) ?? [];
    expect(radios.map((r) => r.includes('checked'))).toEqual([false, true, false]);
  });

  it('says when nothing can be stored, and disables storing', () => {
    const html = render({
      rules: [],
      matched: 0,
      examples: [],
      summary: 'No rule can be stored.',
      choices: [],
    });
    expect(html).toContain('No rule can be stored.');
    expect(html).toMatch(
      /<button type="button" class="button primary" disabled="">Store rule and allow/,
    );
    expect(render(null)).toContain('Checking this project');
  });
});

describe('the answer the confirmation sends', () => {
  it('is the exact rule unless the person picked a widening', () => {
    const selection = initialSelection(PREVIEW);
    expect(selection).toEqual([0, 0]);
    expect(alwaysAnswer(PREVIEW, selection)).toEqual({ kind: 'allow-always' });
    expect(alwaysAnswer(PREVIEW, select(selection, 0, 2))).toEqual({
      kind: 'allow-always',
      widen: [['npm', 'test']],
    });
    expect(alwaysAnswer(PREVIEW, select(selection, 0, 3))).toEqual({
      kind: 'allow-always',
      widen: [['npm', 'test', '--']],
    });
  });

  it('never sends a refused widening, even when picked by index', () => {
    expect(alwaysAnswer(PREVIEW, [1, 1])).toEqual({ kind: 'allow-always' });
    expect(alwaysAnswer(PREVIEW, [9, 0])).toEqual({ kind: 'allow-always' });
  });
});
