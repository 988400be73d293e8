import { describe, expect, it } from 'vitest';
import type { RunBasis } from '../../shared/tool-types';
import { classifyCommand } from './command-classifier';
import { defaultBasis, describeAccess, planCommandRun } from './sandbox-access';
import type { ProjectAccess } from './sandbox-launcher';

const READ_ONLY: ProjectAccess = { kind: 'read-only' };
const NO_GIT: ProjectAccess = { kind: 'read-write', git: 'read-only' };
const GIT: ProjectAccess = { kind: 'read-write', git: 'protected' };

describe('planCommandRun', () => {
  it.each([
    ['ls -la', 'read-only', READ_ONLY, "'ls' '-la'"],
    ['git status', 'read-only', READ_ONLY, "'git' 'status'"],
    ['rm -rf build', 'person', NO_GIT, 'rm -rf build'],
    ['npm test > out.txt', 'person', NO_GIT, 'npm test > out.txt'],
    ['git commit -m x', 'person', GIT, 'git commit -m x'],
    ['npm run build && git add -A', 'mode', GIT, 'npm run build && git add -A'],
    ['/usr/bin/git push', 'person', GIT, '/usr/bin/git push'],
    // A rule speaks for judged words: those run, quoted, never the text.
    ['npm test', 'rule', NO_GIT, "'npm' 'test'"],
    ['git commit -m "a b"', 'grant', GIT, "'git' 'commit' '-m' 'a b'"],
    // Unparsable: it ran only because the person approved it; the protected entries still hold.
    ['echo "unterminated', 'person', GIT, 'echo "unterminated'],
  ] as const)('%s allowed by %s → %o', async (command, basis, access, text) => {
    const planned = planCommandRun(basis as RunBasis, await classifyCommand(command, '/tmp'));
    expect(planned).toEqual({
      ok: true,
      access,
      text,
      readOnly: basis === 'read-only',
      network: basis !== 'read-only',
    });
  });

  it('refuses what its basis cannot stand for', async () => {
    // Allowed as read-only but not judged so (the verdict changed): never run with more access.
    expect(planCommandRun('read-only', await classifyCommand('rm x', '/tmp')).ok).toBe(false);
    // A rule cannot run a command whose words were not all judged.
    expect(planCommandRun('rule', await classifyCommand('cat $(rm x)', '/tmp')).ok).toBe(false);
  });

  it('runs a command with no gate read-only exactly when it is judged so', async () => {
    expect(defaultBasis(await classifyCommand('ls', '/tmp'))).toBe('read-only');
    expect(defaultBasis(await classifyCommand('touch x', '/tmp'))).toBe('person');
  });

  it.each([
    ['ls -la', true, false],
    ['git log --oneline -5', true, false],
    ['npm install', true, true],
    ['npm install', false, false],
    ['curl -s https://example.com', true, true],
  ] as const)('%s, project allows network: %s → network %s', async (command, allows, network) => {
    const verdict = await classifyCommand(command, '/tmp');
    const planned = planCommandRun(defaultBasis(verdict), verdict);
    expect(planned.ok && planned.network && allows).toBe(network);
  });

  it.each([
    [READ_ONLY, 'project read-only, clean environment (read-only command)'],
    [NO_GIT, 'project read-write, .git read-only (no git command)'],
    [GIT, 'project read-write, git hooks and settings read-only'],
  ] as const)('describes %o for the person', (access, text) => {
    expect(describeAccess(access)).toBe(text);
  });
});
