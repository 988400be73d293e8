import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { sessionsDir } from '../store/transcript';
import { loadEarlierCalls, NOTHING_TO_STORE, previewAlwaysChoices } from './always-rule-preview';
import { exactRule } from './permission-rule';
import { realPolicyDeps } from './real-policy-deps';
import type { EarlierCall } from './rule-preview';

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'tandem-always-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const shell = (command: string): EarlierCall => ({ name: 'shell', command });

describe('previewAlwaysChoices', () => {
  it('offers the exact rule first, then each allowed widening with its words and earlier matches', async () => {
    const calls = [
      shell('npm test'),
      shell('npm test -- --watch'),
      shell('npm test -- --ci'),
      shell('npm test --node-options=x'),
      shell('npm install'),
    ];
    const preview = await previewAlwaysChoices(
      [exactRule(['npm', 'test', '--', '--watch'])],
      calls,
      dir,
      realPolicyDeps,
    );
    expect(preview.rules).toEqual(['`npm test -- --watch` exactly']);
    expect(preview.summary).toBe(
      '`npm test -- --watch` exactly would have run 1 earlier call without asking, e.g. `npm test -- --watch`',
    );
    const [choices] = preview.choices;
    expect(
      choices?.map((c) => [c.widen?.join(' ') ?? null, c.refused === null, c.matched]),
    ).toEqual([
      [null, true, 1],
      ['npm', false, 0],
      ['npm test', true, 3],
      ['npm test --', true, 2],
      ['npm test -- --watch', true, 1],
    ]);
    expect(choices?.[0]?.accepts).toMatch(/^accepts only `npm test -- --watch`/);
    expect(choices?.[1]?.refused).toMatch(/`npm \*` would cover every use of `npm`/);
    expect(choices?.[1]?.summary).toMatch(/^Not offered: /);
    expect(choices?.[2]).toMatchObject({
      rule: '`npm test *` (`npm test` with any further words for the script; options before `--` still ask)',
      examples: ['npm test', 'npm test -- --watch', 'npm test -- --ci'],
    });
  });

  it('offers no widening for `git push`, and none for a tool', async () => {
    const preview = await previewAlwaysChoices(
      [exactRule(['git', 'push', 'origin', 'main']), { kind: 'tool', tool: 'write_file' }],
      [{ name: 'write_file' }],
      dir,
      realPolicyDeps,
    );
    expect(preview.rules).toEqual(['`git push origin main` exactly', 'tool `write_file`']);
    expect(preview.choices[0]?.slice(1).every((c) => c.refused !== null)).toBe(true);
    expect(preview.choices[0]?.[2]?.refused).toMatch(/`git push` can run other programs/);
    expect(preview.choices[1]).toMatchObject([{ widen: null, matched: 1, refused: null }]);
    expect(preview.matched).toBe(1);
  });

  it('says when nothing can be stored', async () => {
    expect(await previewAlwaysChoices([], [], dir, realPolicyDeps)).toEqual({
      rules: [],
      matched: 0,
      examples: [],
      summary: NOTHING_TO_STORE,
      choices: [],
    });
  });
});

describe('loadEarlierCalls', () => {
  it('reads the transcripts and leaves out the pending request', async () => {
    const asked = (requestId: string, command: string): RunEvent => ({
      type: 'approval-requested',
      runId: 'r',
      requestId,
      callId: requestId,
      name: 'shell',
      args: { command },
      argsHash: 'h',
      effect: 'exec',
      preview: {
        kind: 'command',
        command,
        cwd: dir,
        parts: [],
        sandbox: { kind: 'none', available: false, description: '' },
      },
      reasons: [],
      at: 1,
    });
    const folder = join(dir, 'proj');
    const sessions = sessionsDir(join(dir, 'data'), folder);
    await mkdir(sessions, { recursive: true });
    const lines = [asked('q1', 'make'), asked('q2', 'rm build')].map((event) =>
      JSON.stringify({ kind: 'event', at: 1, event }),
    );
    await writeFile(join(sessions, 's.jsonl'), `${lines.join('\n')}\n`);
    const earlier = JSON.stringify({ kind: 'event', at: 0, event: asked('q0', 'make') });
    await writeFile(join(sessions, 'r.jsonl'), `${earlier}\n`);
    // The pending request's session is "this session"; the other is the project's history.
    expect(await loadEarlierCalls(join(dir, 'data'), folder, 'q2')).toEqual([
      shell('make'),
      { ...shell('make'), thisSession: true },
    ]);
    expect(await loadEarlierCalls(join(dir, 'data'), folder)).toEqual([
      shell('make'),
      shell('make'),
      shell('rm build'),
    ]);
  });

  it('says which earlier calls were in this session (the same command allowed once just now)', async () => {
    const here = { ...shell('npm test'), thisSession: true };
    const rule = [exactRule(['npm', 'test'])];
    const summary = async (calls: EarlierCall[]): Promise<string> =>
      (await previewAlwaysChoices(rule, calls, dir, realPolicyDeps)).summary;
    expect(await summary([here])).toBe(
      '`npm test` exactly would have run 1 earlier call (in this session) without asking, e.g. `npm test`',
    );
    expect(await summary([here, here])).toMatch(/2 earlier calls \(all in this session\)/);
    expect(await summary([shell('npm test'), here])).toMatch(
      /2 earlier calls \(1 in this session\) without asking/,
    );
    expect(await summary([shell('npm test')])).toMatch(/1 earlier call without asking/);
  });
});
