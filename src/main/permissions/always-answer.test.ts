import { describe, expect, it } from 'vitest';
import { applyWidening, widenProblem } from './always-answer';
import { exactRule, widenedRule, type PermissionRule } from './permission-rule';

const OFFERED: PermissionRule[] = [
  exactRule(['npm', 'test', '--', '--watch']),
  exactRule(['git', 'push', 'origin', 'main']),
  exactRule(['rm', 'build', 'src']),
];

describe('widenProblem: main takes a widening only as a prefix the card offered', () => {
  const cases: { widen: string[][]; problem: RegExp | null }[] = [
    { widen: [['npm', 'test']], problem: null },
    { widen: [['npm', 'test', '--', '--watch']], problem: null },
    {
      widen: [
        ['npm', 'test'],
        ['rm', 'build'],
      ],
      problem: null,
    },
    // Not a prefix of anything the card showed: arbitrary argv from the window.
    {
      widen: [['curl', 'evil.example']],
      problem: /`curl evil.example` is not the start of a command this card offered/,
    },
    { widen: [['npm', 'install']], problem: /not the start of a command this card offered/ },
    { widen: [['rm', 'build', 'src', 'more']], problem: /not the start/ },
    { widen: [['npm', 'test', '--', '--watch', '--ci']], problem: /not the start/ },
    // A prefix of what was shown, but beyond the limits.
    { widen: [['git', 'push']], problem: /`git push` can run other programs/ },
    { widen: [['npm']], problem: /every use of `npm`/ },
    { widen: [['rm']], problem: /every use of `rm`/ },
    // Two widenings for one command: ambiguous, refused.
    {
      widen: [
        ['rm', 'build'],
        ['rm', 'build', 'src'],
      ],
      problem: /two widenings were given for `rm build src`/,
    },
  ];
  it.each(cases)('$widen → $problem', ({ widen, problem }) => {
    const found = widenProblem(widen, OFFERED);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('a tool rule offers nothing to widen', () => {
    expect(widenProblem([['write_file', 'x']], [{ kind: 'tool', tool: 'write_file' }])).toMatch(
      /not the start/,
    );
  });
});

describe('applyWidening', () => {
  it('widens the commands a prefix starts, keeps the others exact', () => {
    expect(applyWidening(OFFERED, [['npm', 'test']])).toEqual([
      widenedRule(['npm', 'test']),
      exactRule(['git', 'push', 'origin', 'main']),
      exactRule(['rm', 'build', 'src']),
    ]);
    expect(applyWidening(OFFERED, [])).toEqual(OFFERED);
    const tool: PermissionRule = { kind: 'tool', tool: 'write_file' };
    expect(applyWidening([tool], [['write_file']])).toEqual([tool]);
  });
});
