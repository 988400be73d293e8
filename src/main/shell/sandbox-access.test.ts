import { describe, expect, it } from 'vitest';
import { classifyCommand } from './command-classifier';
import { accessForCommand, describeAccess, sandboxPlanForCommand } from './sandbox-access';
import type { ProjectAccess } from './sandbox-launcher';

const READ_ONLY: ProjectAccess = { kind: 'read-only' };
const NO_GIT: ProjectAccess = { kind: 'read-write', git: 'read-only' };
const GIT: ProjectAccess = { kind: 'read-write', git: 'protected' };

describe('accessForCommand', () => {
  it.each([
    ['ls -la', READ_ONLY],
    ['git status', READ_ONLY],
    ['rm -rf build', NO_GIT],
    ['npm test > out.txt', NO_GIT],
    ['git commit -m x', GIT],
    ['npm run build && git add -A', GIT],
    ['/usr/bin/git push', GIT],
    // Unparsable: it ran only because the person approved it; the protected entries still hold.
    ['echo "unterminated', GIT],
  ] as const)('%s → %o', async (command, access) => {
    expect(accessForCommand(await classifyCommand(command, '/tmp'))).toEqual(access);
  });

  it('builds the plan from the options and the classification alone', async () => {
    const plan = sandboxPlanForCommand(await classifyCommand('touch x', '/tmp'), {
      folder: '/p',
      home: '/h',
      allowNetwork: true,
    });
    expect(plan).toEqual({ folder: '/p', home: '/h', allowNetwork: true, access: NO_GIT });
  });

  it.each([
    ['ls -la', true, false],
    ['git log --oneline -5', true, false],
    ['npm install', true, true],
    ['npm install', false, false],
    ['curl -s https://example.com', true, true],
  ] as const)('%s, project allows network: %s → network %s', async (command, allows, network) => {
    const plan = sandboxPlanForCommand(await classifyCommand(command, '/tmp'), {
      folder: '/p',
      home: '/h',
      allowNetwork: allows,
    });
    expect(plan.allowNetwork).toBe(network);
  });

  it.each([
    [READ_ONLY, 'project read-only (read-only command)'],
    [NO_GIT, 'project read-write, .git read-only (no git command)'],
    [GIT, 'project read-write, git hooks and settings read-only'],
  ] as const)('describes %o for the person', (access, text) => {
    expect(describeAccess(access)).toBe(text);
  });
});
